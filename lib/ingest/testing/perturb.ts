import { randomInt, type Rng } from "@/lib/util/random";

/** What happens to tweets on their way round: retweets, appended links, edits, hashtags, shouting. */
export function perturb(text: string, rng: Rng): string {
  const words = text.split(/\s+/).filter(Boolean);
  switch (randomInt(rng, 7)) {
    case 0:
      return `RT @user${randomInt(rng, 9999)}: ${text}`;
    case 1:
      return `${text} http://t.co/${randomInt(rng, 1e9).toString(36)}`;
    case 2:
      if (words.length > 3) words.splice(randomInt(rng, words.length), 1);
      return words.join(" ");
    case 3:
      if (words.length > 3) {
        const i = randomInt(rng, words.length - 1);
        [words[i], words[i + 1]] = [words[i + 1], words[i]];
      }
      return words.join(" ");
    case 4:
      return `${text} #${["breaking", "news", "update", "help", "prayers"][randomInt(rng, 5)]}`;
    case 5:
      return `${words.slice(0, Math.max(3, words.length - 2)).join(" ")} ${["via", "cc", "omg", "wow"][randomInt(rng, 4)]}`;
    default:
      return text.toUpperCase();
  }
}
