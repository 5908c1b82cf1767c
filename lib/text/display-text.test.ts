import { describe, expect, it } from "vitest";
import { displayText } from "./display-text";

describe("displayText", () => {
  it("decodes the entities Twitter and HumAID store, once", () => {
    expect(displayText("Food &amp; water &lt;3 &gt;&gt; RT &quot;stay safe&quot; it&#39;s &#x1F30A; &apos;ok&apos;")).toBe(`Food & water <3 >> RT "stay safe" it's 🌊 'ok'`);
    expect(displayText("&amp;lt;script&amp;gt;")).toBe("&lt;script&gt;");
  });

  it("leaves text without entities, unknown names and invalid code points as they are", () => {
    expect(displayText("Roads flooded near downtown")).toBe("Roads flooded near downtown");
    expect(displayText("AT&T & co &copy; &#0; &#xD800; &amp")).toBe("AT&T & co &copy; &#0; &#xD800; &amp");
  });
});
