import type { ReactNode } from "react";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { eventSettingsProblem } from "@/lib/events/event-lookup";
import { Card } from "@/components/ui/card";

/** An event whose stored rule settings do not parse shows why, on every one of its pages, instead of guessed rules. */
export default async function EventLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  await requirePageUser("view");
  const problem = await eventSettingsProblem(getDb(), (await params).slug);
  if (!problem) return children;
  return (
    <Card title="This event cannot be shown">
      <p className="text-sm text-red-700" role="alert" data-testid="event-settings-problem">
        {problem}
      </p>
    </Card>
  );
}
