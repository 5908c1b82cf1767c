import { createRng, pick, randomInt, type Rng } from "@/lib/util/random";

/** Tests only: building blocks of the synthetic tweets (written for Accord, no third-party text). */

/** Tweets in other languages, as crisis collections hold some ({place} is filled in). */
export const FOREIGN_SENTENCES: Record<string, string[]> = {
  es: [
    "Las inundaciones cerraron varias carreteras cerca de {place}, quédense en casa esta noche",
    "Necesitamos agua potable y mantas para las familias que perdieron sus casas en {place}",
    "Muchas gracias a todos los voluntarios que están ayudando en {place} desde ayer",
    "El río sigue creciendo y las autoridades piden evacuar los barrios bajos de {place}",
    "Mis oraciones están con la gente de {place}, que Dios los proteja a todos",
  ],
  pt: [
    "As chuvas fortes deixaram centenas de famílias desabrigadas em {place} nesta semana",
    "Estamos arrecadando roupas e alimentos para as vítimas da enchente em {place}",
    "A defesa civil pede que os moradores de {place} deixem suas casas imediatamente",
    "Que tristeza ver as imagens da tragédia em {place}, força para todos",
  ],
  it: [
    "Le strade di {place} sono ancora allagate e molte scuole resteranno chiuse domani",
    "La protezione civile chiede ai cittadini di {place} di non uscire di casa stanotte",
    "Un pensiero per tutte le famiglie colpite dal disastro di {place}",
    "Servono volontari e generi alimentari per gli sfollati ospitati nella palestra di {place}",
  ],
  fr: [
    "Les pompiers ont évacué plusieurs quartiers de {place} pendant la nuit à cause de la crue",
    "Toutes nos pensées vont aux habitants de {place} qui ont tout perdu",
    "La route principale vers {place} est coupée, évitez de vous déplacer aujourd'hui",
  ],
  tl: [
    "Mag-ingat po kayong lahat sa {place}, patuloy pa rin ang malakas na ulan ngayong gabi",
    "Kailangan ng tubig at pagkain ng mga nasalanta ng baha sa {place}, tulungan po natin sila",
    "Salamat sa lahat ng mga tumulong sa mga pamilyang lumikas mula sa {place}",
  ],
};

const COMMON = [
  ...new Set(
    (
  "i you the a to and is it in my of that me for on this so be have just not but with at like was all are " +
  "we your get what day lol can do good love up now one know out go got if no time about when im too new " +
  "its dont people see they today more will back from am really how much there need night think want make " +
  "going would been off last some why home work who still right here an them has him next come feel morning " +
  "take great our first way had then weekend game week over him well she best never week could life school " +
  "said into better year always happy look thing show miss fun watch sleep tomorrow friends tonight class " +
  "hate long little again only say though even ever bad pretty hope coffee music movie phone team old sure " +
  "nothing something everyone somebody maybe already because guys yeah omg wow haha gonna wanna cant"
    ).split(" "),
  ),
];

const SYLLABLES = ["ka", "lo", "mi", "ter", "zu", "bran", "el", "qui", "sto", "va", "nor", "pe", "dra", "fi", "gul", "ix", "or", "sen", "tha", "wy"];

/** A long tail of made-up words (hashtags, names, slang), the same for every run. */
const RARE: string[] = (() => {
  const rng = createRng(4242);
  const words = new Set<string>();
  while (words.size < 2_500) {
    let w = "";
    for (let k = 2 + randomInt(rng, 3); k > 0; k--) w += pick(SYLLABLES, rng);
    words.add(w);
  }
  return [...words];
})();

const VOCABULARY = [...COMMON, ...RARE];

/** Cumulative Zipf weights (rank r has weight 1/r), as word frequencies go. */
const ZIPF: Float64Array = (() => {
  const c = new Float64Array(VOCABULARY.length);
  let s = 0;
  for (let r = 0; r < c.length; r++) c[r] = s += 1 / (r + 1);
  return c;
})();

function zipfWord(rng: Rng): string {
  const x = rng() * ZIPF[ZIPF.length - 1];
  let lo = 0;
  let hi = ZIPF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}

/** An off-topic tweet of 2–26 words with Zipf-distributed vocabulary, sometimes a mention, hashtag or link. */
export function zipfChatter(rng: Rng): string {
  const words: string[] = [];
  for (let n = 2 + Math.min(24, Math.floor(-Math.log(1 - rng()) * 8)); n > 0; n--) words.push(zipfWord(rng));
  if (rng() < 0.3) words.unshift(`@${zipfWord(rng)}${randomInt(rng, 100)}`);
  if (rng() < 0.2) words.push(`#${zipfWord(rng)}`);
  if (rng() < 0.15) words.push(`http://t.co/${randomInt(rng, 36 ** 8).toString(36)}`);
  return words.join(" ");
}

const TWITTER_EPOCH = 1_288_834_974_657;

/** A snowflake tweet id for a time (milliseconds), with random low bits as Twitter's machine/sequence parts. */
export function snowflakeId(ms: number, rng: Rng): string {
  return ((BigInt(ms - TWITTER_EPOCH) << 22n) | BigInt(randomInt(rng, 1 << 22))).toString();
}
