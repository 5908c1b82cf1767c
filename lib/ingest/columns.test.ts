import { describe, expect, it } from "vitest";
import { findColumn, mapColumns, missingColumns, proposeColumns, resolveColumns } from "./columns";
import { checkColumnsInHeader, parseColumnsOption, uploadColumnsSchema } from "./columns.validation";

const CF = ["_unit_id", "_golden", "tweet_no", "tweet", "choose_one_category", "tweet_created", "tweet_location", "lang"];

describe("the researcher's column mapping", () => {
  it("maps the named columns, leaves out the ones it does not name, and still recognises the others by name", () => {
    // By name alone, "tweet" is the text but there is no id column (the file would be refused).
    expect(mapColumns(CF).id).toBeUndefined();
    const { map, mapped } = resolveColumns(CF, { id: "tweet_no", text: "tweet", label: "choose_one_category", date: "Tweet Created", location: null });
    expect(mapped).toBe(true);
    expect(map).toEqual({ id: 2, text: 3, label: 4, createdAt: 5, lang: 7 });
    // location is the mapping's to say: left out, tweet_location is not read even though "location" would match
    expect(map.userLocation).toBeUndefined();
  });

  it("falls back to recognition by name when the file lacks a column the mapping names", () => {
    const header = ["tweet_id", "tweet_text", "label"];
    expect(missingColumns(header, { id: "tweet_no", text: "tweet" })).toEqual(["tweet_no", "tweet"]);
    expect(resolveColumns(header, { id: "tweet_no", text: "tweet" })).toEqual({ map: { id: 0, text: 1, label: 2 }, mapped: false });
  });

  it("finds columns as the header matching does (case, spaces, punctuation) and proposes what it recognises", () => {
    expect(findColumn(CF, "TWEET NO")).toBe(2);
    expect(findColumn(CF, "nope")).toBe(-1);
    expect(proposeColumns(CF)).toEqual({ text: "tweet" });
    expect(proposeColumns(["Tweet ID", "text", "created_at", "user.location"])).toEqual({ id: "Tweet ID", text: "text", date: "created_at", location: "user.location" });
  });

  it("validates with zod: id and text required, one column per field", () => {
    expect(uploadColumnsSchema.safeParse({ id: "tweet_no" }).success).toBe(false);
    const twice = uploadColumnsSchema.safeParse({ id: "tweet", text: "tweet" });
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]).toMatchObject({ path: ["text"], message: '"tweet" is already the id column.' });
    expect(uploadColumnsSchema.parse({ id: "a", text: "b", label: "", date: undefined })).toEqual({ id: "a", text: "b", label: null, date: null, location: null });
  });

  it("refuses a mapping naming a column the file does not have, naming it", () => {
    expect(() => checkColumnsInHeader({ id: "tweet_number", text: "tweet" }, CF, "sandy.csv")).toThrow(/^"sandy\.csv" has no column "tweet_number": its columns are "_unit_id", /);
    expect(() => checkColumnsInHeader({ id: "tweet_no", text: "tweet" }, CF, "sandy.csv")).not.toThrow();
  });

  it("reads the command line's --columns", () => {
    expect(parseColumnsOption("id=tweet_no,text=tweet,label=choose_one_category,time=tweet_created,place=tweet_location")).toEqual({
      id: "tweet_no",
      text: "tweet",
      label: "choose_one_category",
      date: "tweet_created",
      location: "tweet_location",
    });
    expect(() => parseColumnsOption("id=tweet_no,colour=red")).toThrow(/"colour=red" should be FIELD=COLUMN with FIELD one of id, text, label, date, location/);
    expect(() => parseColumnsOption("id=tweet_no")).toThrow(/--columns: text: .*\(id= and text= are required\)/);
  });
});
