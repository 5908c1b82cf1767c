import { XMLParser } from "fast-xml-parser";
import { decodeXmlEntities } from "../mturk/xml-text";
import { textKey } from "./truth";

/** A form control group as a simulated worker sees it in a HIT's HTML. */
export interface FormGroup {
  name: string;
  kind: "radio" | "checkbox" | "select" | "text" | "textarea";
  /** Values offered (radio/checkbox/select). */
  options: string[];
  required: boolean;
  /**
   * How the worker knows the tweet (for the truth oracle): data-tweet-id of the nearest enclosing/preceding element
   * that carries one, else textKey() of the tweet's text (a `class="text"` element before the group in its container).
   */
  tweetId?: string;
  /** An instructed item's visible option names (the text of the `<label>` around each; "" when none), parallel to `options`. */
  optionNames?: string[];
  /** The option name an attention check's text tells the worker to choose ("Attention check: … choose “<name>”"). */
  instruction?: string;
}

/** The option value an instructed-response item asks for (its instruction names one of its options), else undefined. */
export function instructedOption(g: FormGroup): string | undefined {
  if (g.instruction === undefined || !g.optionNames) return undefined;
  const i = g.optionNames.indexOf(g.instruction);
  return i >= 0 ? g.options[i] : undefined;
}

const INSTRUCTION = /^\s*Attention check\b[\s\S]*?\bchoose “([^”]+)”/;

export interface ParsedHitForm {
  /** "html" = a plain <form> (answers per field); "crowd" = <crowd-form> (answers as one taskAnswers JSON). */
  kind: "html" | "crowd";
  action?: string;
  groups: FormGroup[];
}

const xmlParser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, processEntities: false, cdataPropName: "__cdata" });

/** The HTML inside an HTMLQuestion's HTMLContent (CDATA sections joined, other text entity-decoded). */
export function htmlOfHtmlQuestion(xml: string): string | null {
  const doc = xmlParser.parse(xml) as Record<string, unknown>;
  const root = doc.HTMLQuestion as Record<string, unknown> | undefined;
  if (!root) return null;
  const content = root.HTMLContent;
  if (typeof content === "string") return decodeXmlEntities(content);
  if (content && typeof content === "object") {
    const c = content as Record<string, unknown>;
    const cd = c.__cdata;
    const fromCdata = Array.isArray(cd) ? cd.map(String).join("") : cd === undefined ? "" : String(cd);
    return fromCdata + (c["#text"] === undefined ? "" : decodeXmlEntities(String(c["#text"])));
  }
  return null;
}

function parseAttributes(raw: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) attrs.set(m[1].toLowerCase(), decodeXmlEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  return attrs;
}

const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/**
 * Reads the controls of a HIT's HTML form in document order (a tolerant tag scanner, not a full HTML parser):
 * inputs (radio, checkbox, text…; hidden/submit ignored), selects with their options, textareas. Script and
 * style contents are skipped.
 */
export function parseHitForm(html: string): ParsedHitForm {
  const clean = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "");
  const groups = new Map<string, FormGroup>();
  const form: ParsedHitForm = { kind: /<crowd-form\b/i.test(clean) ? "crowd" : "html", groups: [] };
  const tagRe = /<(\/?)([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  // Open elements with the tweet id in scope (inherited from the parent when the element has none).
  const stack: Array<{ tag: string; tweetId?: string; instruction?: string }> = [];
  let currentSelect: FormGroup | null = null;
  let m: RegExpExecArray | null;
  let ownTweetId: string | undefined;
  const group = (name: string, kind: FormGroup["kind"], required: boolean): FormGroup => {
    let g = groups.get(name);
    if (!g) {
      const instruction = stack.at(-1)?.instruction;
      g = { name, kind, options: [], required, tweetId: ownTweetId ?? stack.at(-1)?.tweetId, ...(instruction !== undefined ? { instruction } : {}) };
      groups.set(name, g);
    }
    g.required ||= required;
    return g;
  };
  while ((m = tagRe.exec(clean))) {
    const closing = m[1] === "/";
    const tag = m[2].toLowerCase();
    if (closing) {
      const at = stack.map((e) => e.tag).lastIndexOf(tag);
      if (at >= 0) stack.length = at;
      if (tag === "select") currentSelect = null;
      continue;
    }
    const attrs = parseAttributes(m[3]);
    ownTweetId = attrs.get("data-tweet-id");
    // A tweet's text names its container (the fieldset) for the groups that follow it there, when no id does.
    if ((attrs.get("class") ?? "").split(/\s+/).includes("text") && stack.length > 0) {
      const end = clean.indexOf(`</${tag}`, tagRe.lastIndex);
      const text = end >= 0 ? decodeXmlEntities(clean.slice(tagRe.lastIndex, end).replace(/<[^>]*>/g, "")) : null;
      if (text !== null && stack.at(-1)!.tweetId === undefined) stack.at(-1)!.tweetId = textKey(text);
      // An instructed-response item (an attention check) says in its text which option to choose.
      const instructed = text === null ? null : INSTRUCTION.exec(text);
      if (instructed) stack.at(-1)!.instruction = instructed[1];
    }
    if (!VOID_ELEMENTS.has(tag) && !m[3].trim().endsWith("/")) {
      stack.push({ tag, tweetId: attrs.get("data-tweet-id") ?? stack.at(-1)?.tweetId, instruction: stack.at(-1)?.instruction });
    }
    if (tag === "form" && form.action === undefined) form.action = attrs.get("action");
    const name = attrs.get("name");
    const required = attrs.has("required");
    if (tag === "input" && name) {
      const type = (attrs.get("type") ?? "text").toLowerCase();
      if (type === "hidden" || type === "submit" || type === "button" || type === "reset" || type === "image") continue;
      if (type === "radio" || type === "checkbox") {
        const g = group(name, type, required);
        g.options.push(attrs.get("value") ?? "on");
        // An instructed item's option names (the rest of the <label> each sits in); other groups keep none (memory).
        if (g.instruction !== undefined) {
          const end = stack.at(-1)?.tag === "label" ? clean.indexOf("</label", tagRe.lastIndex) : -1;
          (g.optionNames ??= []).push(end >= 0 ? decodeXmlEntities(clean.slice(tagRe.lastIndex, end).replace(/<[^>]*>/g, "")).trim() : "");
        }
      }
      else group(name, "text", required);
    } else if (tag === "select" && name) {
      currentSelect = group(name, "select", required);
    } else if (tag === "option" && currentSelect) {
      const value = attrs.get("value");
      if (value !== undefined && value !== "") currentSelect.options.push(value);
    } else if (tag === "textarea" && name) {
      group(name, "textarea", required);
    }
  }
  form.groups = [...groups.values()];
  return form;
}
