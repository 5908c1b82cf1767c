"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { initialActionState } from "@/lib/actions/action-state";
import { deleteImportFileAction, rerunImportAction } from "@/lib/actions/imports";

const small = "!px-2 !py-1 text-xs";

/**
 * A finished import's kept file: re-run the import with the event's current settings (refused, with the reason, while
 * any of its tweets is gold or in a HIT), or delete the file (no more re-runs).
 */
export function ImportFileActions({ importId, canRerun, canDelete }: { importId: string; canRerun: boolean; canDelete: boolean }) {
  const [rerunState, rerun, rerunning] = useActionState(rerunImportAction, initialActionState);
  const [deleteState, remove, deleting] = useActionState(deleteImportFileAction, initialActionState);
  const state = rerunState.message ? rerunState : deleteState;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2" data-testid="import-file-actions">
      {canRerun ? (
        <form action={rerun}>
          <input type="hidden" name="importId" value={importId} />
          <Button type="submit" variant="secondary" className={small} disabled={rerunning || rerunState.ok === true}>
            Re-run with the current settings
          </Button>
        </form>
      ) : null}
      {canDelete ? (
        <form action={remove}>
          <input type="hidden" name="importId" value={importId} />
          <Button type="submit" variant="secondary" className={small} disabled={deleting || deleteState.ok === true}>
            Delete the kept file
          </Button>
        </form>
      ) : null}
      {state.message ? (
        <span role="status" className={`text-xs ${state.ok ? "text-emerald-700" : "text-red-700"}`}>
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
