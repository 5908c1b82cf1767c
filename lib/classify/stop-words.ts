/**
 * English stop words removed before word n-grams (HumAID §5.1 "removal of stop words"). The usual
 * short function-word list of IR toolkits, with apostrophes dropped the way preprocessing drops them
 * ("don't" → "dont"). Negations and stance words ("not", "no", "nor", "against", "dont", "cant") are
 * kept on purpose: they can carry the label (stance, sympathy vs caution), and bigrams such as
 * "not safe" need them.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself
  him himself his how i if in into is it its itself just me more most my myself now of off on once only or other
  our ours ourselves out over own same she should so some such than that the their theirs them themselves then
  there these they this those through to too under until up very was we were what when where which while who whom
  why will with would you your yours yourself yourselves im ive youre youve youd youll hes shes theyre weve theyve
  thats theres whats whos rt amp`
    .split(/\s+/)
    .filter(Boolean),
);
