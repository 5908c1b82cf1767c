import { describe, expect, it } from "vitest";
import { normalizeTweet, preprocessTweet, wordTokens } from "./preprocess";

describe("HumAID §5.1 preprocessing", () => {
  it("removes URLs, user mentions, hashtag signs, numbers, punctuation and stop words", () => {
    const text = "RT @city_fire: Evacuate NOW!!! 3 shelters open at https://t.co/abc123 #FloodRelief (call 911)";
    expect(wordTokens(text)).toEqual(["evacuate", "shelters", "open", "floodrelief", "call"]);
    expect(preprocessTweet(text)).toBe("evacuate shelters open floodrelief call");
  });

  it("drops non-ASCII characters after folding accents, and keeps negations", () => {
    expect(wordTokens("Café señor — niños 🙏 not safe")).toEqual(["cafe", "senor", "ninos", "not", "safe"]);
    expect(wordTokens("東京 earthquake")).toEqual(["earthquake"]);
  });

  it("joins contractions instead of leaving one-letter fragments", () => {
    expect(wordTokens("They can't reach the bridge, it's gone")).toEqual(["cant", "reach", "bridge", "gone"]);
  });

  it("decodes HTML entities and removes www links", () => {
    expect(wordTokens("Food &amp; water --&gt; www.example.org/help please")).toEqual(["food", "water", "please"]);
  });

  it("can keep stop words and non-ASCII words, emoji as tokens of their own", () => {
    expect(wordTokens("We are safe🙏 gracias", { stopWords: false, asciiOnly: false })).toEqual([
      "we",
      "are",
      "safe",
      "🙏",
      "gracias",
    ]);
    expect(wordTokens("Ελλάδα fires", { stopWords: true, asciiOnly: false })).toEqual(["ελλαδα", "fires"]);
  });

  it("normalises lightly for character n-grams (emoji and punctuation stay)", () => {
    expect(normalizeTweet("  @user Stay SAFE!! 🙏 #Harvey https://t.co/x  ")).toBe("stay safe!! 🙏 harvey");
  });

  it("returns nothing for a tweet made only of removable parts", () => {
    expect(wordTokens("@user https://t.co/x 2017 !!! the")).toEqual([]);
  });
});
