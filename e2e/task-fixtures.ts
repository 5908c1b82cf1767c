import { getLocalCrowdProvider } from "@/lib/crowd/local/db-store";
import { buildHitQuestionXml, type HitItem } from "@/lib/crowd/mturk/hit-question";
import { buildQualificationTest, passingScoreRequirement, type GoldTweet } from "@/lib/crowd/mturk/qualification-xml";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { e2eDb } from "./seed";

// The in-house crowd's seeding, shared by the task and every-page specs: a qualification test and a HIT published
// to the local provider exactly as the campaign engine does (HTMLQuestion XML, qualification requirement).

const LABELS = HUMAID_LABELS;
const VALUES = LABELS.map((l) => l.value);

// Synthetic tweets (no third-party text), some with markup that must show as text and never run.
export const TEXTS = [
  `<script>window.__pwned = true; alert("x")</script> Need water at the shelter`,
  `Bridge on 5th & Elm closed <img src=x onerror="window.__pwned=true">`,
  `Volunteers "needed" tonight at the school gym 🙏`,
  `Power is back in the north district\nstay safe everyone`,
];

export function goldTweets(): GoldTweet[] {
  return Array.from({ length: 10 }, (_, i) => ({ tweetId: `e2e-gold-${i}`, text: `Practice tweet ${i + 1}: roads flooded near exit ${i + 3}`, label: VALUES[(i * 3) % VALUES.length] }));
}

/** An event with `n` tweets in one local HIT, published to the in-house crowd like the campaign engine does. */
export async function publishLocalHit({ qualificationTypeId, n = 30, tag }: { qualificationTypeId: string; n?: number; tag: string }) {
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({
    data: { slug: `e2e-task-${tag}`, name: `Task test storm ${tag}`, type: "hurricane", locations: [], schemeId, provider: "local", settings: {}, filters: {} },
  });
  const tweets: Array<{ id: string; externalId: string; text: string }> = [];
  for (let i = 0; i < n; i++) {
    tweets.push(await db.tweet.create({ data: { eventId: event.id, externalId: `${tag}${String(i).padStart(6, "0")}`, text: `${TEXTS[i % TEXTS.length]} #${i + 1}`, status: "in_hit" } }));
  }
  const hit = await db.hit.create({
    data: { eventId: event.id, seq: 1, provider: "local", uniqueRequestToken: `accord-hit:e2e-${tag}`, maxAssignments: 3, rewardCents: 0, seed: 1 },
  });
  const hitItems: Array<{ id: string }> = [];
  for (const [position, t] of tweets.entries()) {
    hitItems.push(await db.hitItem.create({ data: { hitId: hit.id, tweetId: t.id, position, isGold: false } }));
  }
  const items: HitItem[] = hitItems.map((hi, i) => ({ itemId: hi.id, tweetId: tweets[i].externalId, text: tweets[i].text }));
  const published = await getLocalCrowdProvider(db).publishHit({
    accordHitId: hit.id,
    title: "Categorise disaster tweets",
    description: `${n} tweets about a hurricane`,
    rewardCents: 0,
    maxAssignments: 3,
    lifetimeSeconds: 7 * 24 * 3600,
    assignmentDurationSeconds: 3600,
    autoApprovalDelaySeconds: 3 * 24 * 3600,
    questionXml: buildHitQuestionXml({ items, labels: LABELS, submitUrl: "https://accord.invalid/task" }),
    qualificationRequirements: [passingScoreRequirement({ qualificationTypeId })],
  });
  await db.hit.update({ where: { id: hit.id }, data: { providerHitId: published.providerHitId, status: "published", publishedAt: new Date(), expiresAt: published.expiresAt } });
  return { event, items, providerHitId: published.providerHitId };
}

export async function createQualificationType(tag: string) {
  const test = buildQualificationTest({ gold: goldTweets(), labels: LABELS });
  const { qualificationTypeId } = await getLocalCrowdProvider(e2eDb()).createQualificationType({
    name: `HumAID qualification ${tag}`,
    description: "Ten tweets labelled by experts; 6 of 10 correct to work on the HITs.",
    testXml: test.questionFormXml,
    answerKeyXml: test.answerKeyXml,
    testDurationSeconds: 1800,
  });
  return qualificationTypeId;
}

