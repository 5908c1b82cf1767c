import { describe, expect, it } from "vitest";
import { instructedOption, parseHitForm } from "./html-form";

const radios = (name: string) => `<label><input type="radio" name="${name}" value="a" required> Alpha</label><label><input type="radio" name="${name}" value="b"> Beta &amp; co</label>`;

describe("instructed-response items in a HIT's form", () => {
  it("reads the option an attention check's text asks for, by its visible label", () => {
    const form = parseHitForm(
      `<form action="/x"><fieldset><legend>Tweet 1 of 1</legend><p class="text">Please choose “Beta & co” if you can.</p>${radios("item-1-i")}</fieldset>` +
        `<fieldset data-check="1"><legend>Attention check</legend><p class="text">Attention check: for this item, choose “Beta &amp; co”.</p>${radios("check-1")}</fieldset>` +
        `<fieldset><p class="text">Attention check: for this item, choose “Gamma”.</p>${radios("check-2")}</fieldset></form>`,
    );
    expect(form.groups.map((g) => [g.name, g.options, instructedOption(g)])).toEqual([
      // A tweet that happens to say "choose" is no instruction: only an attention check's text is.
      ["item-1-i", ["a", "b"], undefined],
      ["check-1", ["a", "b"], "b"],
      // An instruction naming no option of the item: nothing to follow.
      ["check-2", ["a", "b"], undefined],
    ]);
    expect(form.groups[1]!.optionNames).toEqual(["Alpha", "Beta & co"]);
    expect(form.groups[0]!.optionNames).toBeUndefined();
  });
});
