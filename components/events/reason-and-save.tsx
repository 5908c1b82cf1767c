import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";

/** The end of an event's settings form: why the change is made (kept in the history) and the save button. */
export function ReasonAndSave({ id, reason, errors, pending, save, placeholder }: { id: string; reason?: string; errors?: string[]; pending: boolean; save: string; placeholder: string }) {
  return (
    <>
      <div className="mt-4 max-w-xl">
        <Field label="Why (optional, kept with the change)" name="reason" id={id} errors={errors}>
          <TextInput name="reason" id={id} defaultValue={reason} errors={errors} maxLength={500} placeholder={placeholder} />
        </Field>
      </div>
      <Button type="submit" disabled={pending} className="mt-4">
        {pending ? "Saving…" : save}
      </Button>
    </>
  );
}
