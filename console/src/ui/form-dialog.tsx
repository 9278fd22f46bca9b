import type { ReactNode } from 'react';
import { DialogButton } from './dialog.js';
import { Form, SubmitButton, useForm } from './forms.js';

/**
 * A form with its submit button, whose refusals show next to the fields the API's
 * ErrorDetails name by FieldName (others in a banner above). `submit` sends it; once the API
 * has accepted it, `onDone` gets the answer.
 */
export function DialogForm<R>({
  submit,
  submitLabel,
  onDone,
  children,
}: {
  submit(data: FormData): Promise<R>;
  submitLabel: ReactNode;
  onDone(result: R): void;
  children: ReactNode;
}) {
  const form = useForm();
  return (
    <Form form={form} onSubmit={async (data) => onDone(await submit(data))}>
      {children}
      <div className="actions">
        <SubmitButton>{submitLabel}</SubmitButton>
      </div>
    </Form>
  );
}

/**
 * A button opening a dialog that holds a form (creating a resource, or editing one): the
 * dialog closes once the API accepts the form, then `onDone` gets the answer (reload what
 * shows the change, or go to what was made). The fields are rendered only while the dialog is
 * open, so each opening starts afresh; fields that depend on each other (a role's scope) are a
 * component of their own, holding that state.
 */
export function FormDialog<R>({
  label,
  ariaLabel,
  title,
  className,
  submitLabel,
  submit,
  onDone,
  children,
}: {
  label: string;
  /** The button's name for assistive technology when `label` alone is ambiguous (a row's "Rename"). */
  ariaLabel?: string;
  /** The dialog's heading; `label` when not given. */
  title?: string;
  className?: string;
  submitLabel: ReactNode;
  submit(data: FormData): Promise<R>;
  onDone?(result: R): void;
  children: ReactNode;
}) {
  return (
    <DialogButton label={label} ariaLabel={ariaLabel} title={title} className={className}>
      {(close) => (
        <DialogForm
          submit={submit}
          submitLabel={submitLabel}
          onDone={(result) => {
            close();
            onDone?.(result);
          }}
        >
          {children}
        </DialogForm>
      )}
    </DialogButton>
  );
}
