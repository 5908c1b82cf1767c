import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import type { Funnel } from "./funnel";
import { createImport, IMPORT_JOB_TYPE } from "./import-job";
import { labelMapChoices } from "./label-map-choices";
import { parseLabelMapCsv, resumeMappedImport, saveLabelMap } from "./label-map";
import { labelMapFromForm } from "./label-map.validation";
import { tempFiles } from "./testing/test-io";
import { validateRows } from "./validate";

const files = tempFiles("accord-label-map-");
afterAll(() => files.cleanup());

describe("label maps", () => {
  it("reads a from,to CSV (header optional, empty to = drop) and refuses malformed lines", () => {
    expect(parseLabelMapCsv("from,to\nNot labeled,\nOther Useful Information,other_relevant_information\n")).toEqual({
      "Not labeled": null,
      "Other Useful Information": "other_relevant_information",
    });
    expect(parseLabelMapCsv("\uFEFFAffected individuals,Affected individuals\n")).toEqual({ "Affected individuals": "Affected individuals" });
    expect(() => parseLabelMapCsv("a,b,c\n")).toThrow(/Line 1 of the label map/);
  });

  it("maps, keeps as a new label, or drops rows before the scheme check; reports unmapped labels with counts", () => {
    const rows = [
      { line: 2, externalId: "1", text: "a", label: "Not labeled" },
      { line: 3, externalId: "2", text: "b", label: "Other Useful Information" },
      { line: 4, externalId: "3", text: "c", label: "Affected individuals" },
      { line: 5, externalId: "4", text: "d", label: "Caution and advice" },
      { line: 6, externalId: "5", text: "e", label: "Brand new" },
      { line: 7, externalId: "6", text: "f", label: "not labeled" },
    ];
    const r = validateRows(rows, {
      kind: "tweets",
      scheme: { values: ["caution_and_advice", "other_relevant_information"], names: ["Caution and advice", "Other relevant information"] },
      storedIds: new Set(),
      labelMap: { "Not Labeled": null, "Other Useful Information": "Other relevant information", "Affected individuals": "Affected individuals" },
    });
    expect(r.dropped.map((d) => d.line)).toEqual([2, 7]);
    expect(r.rows.map((x) => x.label)).toEqual(["other_relevant_information", "Affected individuals", "caution_and_advice"]);
    expect(r.errors.map((e) => e.reason)).toEqual(['label "Brand new" is not in the event\'s scheme']);
    expect(r.unmapped).toEqual(["Brand new"]);
    expect(r.outsideLabels).toEqual({ "Not labeled": 1, "not labeled": 1, "Other Useful Information": 1, "Affected individuals": 1, "Brand new": 1 });
  });

  it("turns the form's fields into a map and the saved map back into the form's choices", () => {
    const map = labelMapFromForm({ importId: "x", "map:Not labeled": "drop", "map:Affected individuals": "keep", "map:Other": "label:other_relevant_information" });
    expect(map).toEqual({ "Not labeled": null, "Affected individuals": "Affected individuals", Other: "other_relevant_information" });
    const choices = labelMapChoices({ Other: 4, "Not labeled": 13, "Affected individuals": 7, Unseen: 1 }, map, { values: ["other_relevant_information"], names: ["Other relevant information"] });
    expect(choices).toEqual([
      { from: "Not labeled", count: 13, current: "drop" },
      { from: "Affected individuals", count: 7, current: "keep" },
      { from: "Other", count: 4, current: "label:other_relevant_information" },
      { from: "Unseen", count: 1, current: "" },
    ]);
  });
});

const registry = accordJobs({ loadClassifier: null });
const CRISISLEX =
  "Tweet ID, Tweet Text, Information Source, Information Type, Informativeness\n" +
  '"291696707628294745","Officials confirm deaths linked to the floods in the Rockhampton region",Media,Affected individuals,Related and informative\n' +
  '"291708986117932341","Flights to Ipswich cancelled since yesterday while the airport checks its runways",Eyewitness,Other Useful Information,Related and informative\n' +
  '"291708986117932342","Volunteers needed at the Bundaberg evacuation centre tonight please help",NGOs,Donations and volunteering,Related and informative\n' +
  '"291708986117932343","Stay off the roads around Brisbane, water still rising near the river",Government,Caution and advice,Related and informative\n' +
  '"291708986117932344","just watched a great movie with my friends tonight",Outsiders,Not labeled,Not labeled\n' +
  '"291708986117932345","cannot believe how long this queue at the shop is today",Outsiders,Not labeled,Not labeled\n';

async function drain(db: Db) {
  return drainJobs(db, { registry, types: [IMPORT_JOB_TYPE] });
}

describe.each(testFlavors())("an import paused for a label map on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("pauses with the file's labels, then runs from its stored file once mapped; every row accounted for", async () => {
    const schemeId = await ensureHumaidScheme(t.db);
    const filters = { language: { enabled: false }, duplicates: { enabled: false } };
    const event = await t.db.event.create({ data: { slug: "qld", name: "qld", type: "flood", schemeId, settings: {}, filters, locations: [] } });
    const file = files.write("2013_Queensland_floods-tweets_labeled.csv", CRISISLEX);
    const { importId } = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "qld.csv", filePath: file });
    expect(await drain(t.db)).toEqual(["succeeded"]);
    let batch = await t.db.importBatch.findUniqueOrThrow({ where: { id: importId } });
    expect(batch.status).toBe("needs_mapping");
    expect(batch.fileLabels).toEqual({ "Affected individuals": 1, "Other Useful Information": 1, "Donations and volunteering": 1, "Not labeled": 2 });
    expect(batch.activeKey).not.toBeNull();
    expect(await t.db.tweet.count()).toBe(0);
    await expect(resumeMappedImport(t.db, { importId: "nope" })).rejects.toThrow(/does not exist/);

    const changed = await saveLabelMap(t.db, {
      eventId: event.id,
      map: { "Not labeled": null, "Other Useful Information": "other_relevant_information", "Donations and volunteering": "Rescue, volunteering, or donation effort", "Affected individuals": "Affected individuals" },
      actor: null,
    });
    expect(changed).toBe(4);
    await resumeMappedImport(t.db, { importId });
    await expect(resumeMappedImport(t.db, { importId })).rejects.toThrow(/not waiting for a label mapping/);
    expect(await drain(t.db)).toEqual(["succeeded"]);
    batch = await t.db.importBatch.findUniqueOrThrow({ where: { id: importId } });
    expect(batch).toMatchObject({ status: "completed", rowsRead: 6, rowsStored: 4, errorCount: 0, activeKey: null });
    const funnel = batch.funnel as unknown as Funnel;
    const mapStep = funnel.find((s) => s.step === "labelMap");
    expect(mapStep).toMatchObject({ in: 6, kept: 4, removed: 2, reasons: { 'label "Not labeled" mapped to drop': 2 } });
    const removed = funnel.filter((s) => s.step !== "read" && s.step !== "stored").reduce((n, s) => n + s.removed, 0);
    expect(batch.rowsStored + removed).toBe(batch.rowsRead);
    const labels = await t.db.tweet.findMany({ orderBy: { externalId: "asc" }, select: { sourceLabel: true } });
    expect(labels.map((l) => l.sourceLabel)).toEqual(["Affected individuals", "other_relevant_information", "rescue_volunteering_or_donation_effort", "caution_and_advice"]);

    // The map is saved for the event: a later file with the same labels imports without pausing.
    const again = files.write("more.csv", CRISISLEX.replace(/29170898611793234(\d)/g, "39170898611793234$1").replace("291696707628294745", "391696707628294745"));
    const next = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "more.csv", filePath: again });
    await drain(t.db);
    expect(await t.db.importBatch.findUniqueOrThrow({ where: { id: next.importId } })).toMatchObject({ status: "completed", rowsStored: 4 });
  });
});
