import { MIN_REJECTION_MESSAGE_LENGTH } from "./api-types";

/** Why a gold-graded submission is rejected, for a reader who never saw Accord's rules (appended when needed). */
const EXPLANATION =
  "This study's task hides tweets whose category experts agreed on; a submission is approved when enough of them are labelled as the experts did.";

/**
 * A Prolific rejection message from Accord's feedback (built from the event's rule and the worker's score): the
 * feedback itself when it has Prolific's minimum of 100 characters, else the feedback followed by the explanation.
 */
export function rejectionMessage(feedback: string): string {
  const text = feedback.replace(/\s+/g, " ").trim();
  if (text.length >= MIN_REJECTION_MESSAGE_LENGTH) return text;
  return text ? `${text} ${EXPLANATION}` : EXPLANATION;
}
