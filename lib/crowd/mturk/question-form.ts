import { XMLParser } from "fast-xml-parser";
import { CrowdError } from "../errors";
import { decodeXmlEntities } from "./xml-text";

/** A QuestionForm question as a worker sees it (used by the simulator's workers and by previews). */
export interface QuestionFormQuestion {
  questionId: string;
  displayName?: string;
  isRequired: boolean;
  /** Concatenated Text/FormattedContent of QuestionContent. */
  text: string;
  kind: "selection" | "freetext" | "fileupload";
  selections: Array<{ selectionId: string; text: string }>;
  minSelections: number;
  maxSelections: number;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  cdataPropName: "__cdata",
  isArray: (name) => ["Question", "Selection", "Text", "FormattedContent"].includes(name),
});

type Obj = Record<string, unknown>;

function text(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return decodeXmlEntities(v);
  if (Array.isArray(v)) return v.map(text).join("\n");
  if (typeof v === "object") {
    const o = v as Obj;
    return [o["#text"] === undefined ? "" : decodeXmlEntities(String(o["#text"])), o.__cdata === undefined ? "" : String(o.__cdata)].join("");
  }
  return String(v);
}

/** Whether an XML document's root element is QuestionForm (vs HTMLQuestion / ExternalQuestion). */
export function questionRootName(xml: string): string | null {
  const m = /<([A-Za-z][\w.-]*:)?([A-Za-z][\w.-]*)[\s>/]/.exec(xml.replace(/<\?xml[^>]*\?>/, "").replace(/<!--[\s\S]*?-->/g, ""));
  return m ? m[2] : null;
}

export function parseQuestionForm(xml: string): QuestionFormQuestion[] {
  let doc: Obj;
  try {
    doc = parser.parse(xml) as Obj;
  } catch (err) {
    throw new CrowdError(`The QuestionForm is not valid XML: ${err instanceof Error ? err.message : String(err)}`, "invalid_parameter");
  }
  const root = doc.QuestionForm as Obj | undefined;
  if (!root || typeof root !== "object") throw new CrowdError("The document is not a QuestionForm.", "invalid_parameter");
  return ((root.Question as Obj[] | undefined) ?? []).map((q) => {
    const content = (q.QuestionContent ?? {}) as Obj;
    const spec = (q.AnswerSpecification ?? {}) as Obj;
    const sel = spec.SelectionAnswer as Obj | undefined;
    const selections = sel
      ? (((sel.Selections as Obj | undefined)?.Selection as Obj[] | undefined) ?? []).map((s) => ({
          selectionId: text(s.SelectionIdentifier).trim(),
          text: text(s.Text),
        }))
      : [];
    return {
      questionId: text(q.QuestionIdentifier).trim(),
      displayName: q.DisplayName === undefined ? undefined : text(q.DisplayName),
      isRequired: text(q.IsRequired).trim() === "true",
      text: [text(content.Text), text(content.FormattedContent)].filter(Boolean).join("\n"),
      kind: sel ? "selection" : spec.FileUploadAnswer !== undefined ? "fileupload" : "freetext",
      selections,
      minSelections: sel && sel.MinSelectionCount !== undefined ? Number(text(sel.MinSelectionCount)) : 1,
      maxSelections: sel && sel.MaxSelectionCount !== undefined ? Number(text(sel.MaxSelectionCount)) : 1,
    };
  });
}
