import { STOP_WORDS } from "./stop-words";

/**
 * Tweet preprocessing of HumAID §5.1: URLs, user mentions and hashtag signs go; non-ASCII
 * characters, punctuation (replaced with whitespace) and numbers go; stop words go before the word
 * n-grams. Lower-cased throughout.
 */
export type PreprocessOptions = {
  /** Drop stop words from the word tokens (HumAID: yes). */
  stopWords: boolean;
  /** Drop non-ASCII characters (after folding accents: "café" → "cafe"). HumAID: yes. */
  asciiOnly: boolean;
};

export const DEFAULT_PREPROCESS: PreprocessOptions = { stopWords: true, asciiOnly: true };

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : " ";
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

const URL_RE = /(?:https?:\/\/|www\.)\S+/gi;
const MENTION_RE = /(^|[^\w])@\w+/g;

/**
 * The light normalisation shared by both feature kinds: entities decoded, URLs and user mentions
 * removed, hashtag signs dropped, lower case, whitespace collapsed. Emoji and punctuation stay.
 */
export function normalizeTweet(text: string): string {
  return (text.includes("&") ? decodeEntities(text) : text)
    .replace(URL_RE, " ")
    .replace(MENTION_RE, "$1 ")
    .replace(/#/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

const LETTER_RE = /\p{L}/u;
const MARK_RE = /\p{M}/u;
const EMOJI_RE = /\p{Extended_Pictographic}/u;

/**
 * The word tokens of a tweet after the full §5.1 preprocessing: one pass over the characters of the
 * normalised text. ASCII letters build words; apostrophes vanish inside them ("don't" → "dont");
 * digits, punctuation and symbols split words; accents are folded. Non-ASCII letters and emoji are
 * dropped (HumAID) or, with `asciiOnly: false`, kept (each emoji a token of its own). Tokens of one
 * letter and stop words are dropped.
 */
export function wordTokens(text: string, options: PreprocessOptions = DEFAULT_PREPROCESS): string[] {
  let t = normalizeTweet(text);
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(t)) t = t.normalize("NFKD");
  const tokens: string[] = [];
  let word = "";
  const flush = () => {
    if (word.length > 1 && !(options.stopWords && STOP_WORDS.has(word))) tokens.push(word);
    word = "";
  };
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) word += t[i];
    else if (c === 39 || c === 0x2019 || c === 0x2018 || c === 96) continue;
    else if (c < 128) flush();
    else {
      const cp = t.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      if (cp > 0xffff) i++;
      if (MARK_RE.test(ch)) continue;
      if (options.asciiOnly) flush();
      else if (LETTER_RE.test(ch)) word += ch;
      else if (EMOJI_RE.test(ch)) {
        flush();
        tokens.push(ch);
      } else flush();
    }
  }
  flush();
  return tokens;
}

/** The preprocessed tweet as one string (what a researcher sees as "the cleaned text"). */
export function preprocessTweet(text: string, options: PreprocessOptions = DEFAULT_PREPROCESS): string {
  return wordTokens(text, options).join(" ");
}
