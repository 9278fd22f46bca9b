import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, a[href]';

/** Keeps Tab and Shift+Tab cycling inside the dialog instead of leaving the page. */
function trapTab(e: KeyboardEvent<HTMLDialogElement>) {
  if (e.key !== 'Tab') return;
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
import { Banner, useForm } from './forms.js';

/**
 * A modal dialog on the native <dialog>: showModal() makes the page behind it inert, so focus
 * stays inside; Escape closes it; focus returns to what opened it.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  onClose(): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      // The first field, or else the first button of the dialog's actions (Cancel where there is one).
      const first =
        dialog.querySelector<HTMLElement>('input:not([type=hidden]):not([readonly]), select, textarea') ??
        dialog.querySelector<HTMLElement>('.actions button, input') ??
        dialog.querySelector<HTMLElement>('button');
      first?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      (opener.current as HTMLElement | null)?.focus?.();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onKeyDown={trapTab}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <div className="dialog-body">
          <div className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

/** A button that opens a dialog; the content gets `close` to call when its work is done. */
export function DialogButton({
  label,
  ariaLabel,
  title,
  className,
  children,
}: {
  label: string;
  /** The button's name for assistive technology when `label` alone is ambiguous (a row's "Rename"). */
  ariaLabel?: string;
  title?: string;
  className?: string;
  children(close: () => void): ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog title={title ?? label} open={open} onClose={() => setOpen(false)}>
        {children(() => setOpen(false))}
      </Dialog>
    </>
  );
}

/**
 * A button whose action runs only once confirmed in a dialog; a refusal shows in the dialog.
 * Once the action is done, `onDone` runs (reload what shows the change, or leave the page) and
 * the dialog closes.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  title,
  message,
  confirmLabel,
  danger,
  className,
  action,
  onDone,
}: {
  label: string;
  ariaLabel?: string;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  className?: string;
  action(): Promise<unknown>;
  onDone?(): void;
}) {
  const [open, setOpen] = useState(false);
  const form = useForm();
  const close = () => {
    form.clear();
    setOpen(false);
  };
  // Never rejects: form.run shows every failure in the dialog's banner.
  const confirm = async () => {
    if (
      await form.run(async () => {
        await action();
        onDone?.();
      })
    )
      setOpen(false);
  };
  return (
    <>
      <button
        type="button"
        className={className ?? (danger ? 'danger-quiet' : undefined)}
        aria-label={ariaLabel}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      <Dialog title={title} open={open} onClose={close}>
        <Banner messages={form.banner} />
        <div className="dialog-message">{message}</div>
        <div className="actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className={danger ? 'danger' : 'primary'}
            disabled={form.busy}
            onClick={() => void confirm()}
          >
            {confirmLabel}
          </button>
        </div>
      </Dialog>
    </>
  );
}

/**
 * The confirmed removal of one named resource (a row's Delete, a key's Revoke): the button says
 * `verb`, its accessible name (unless `ariaLabel` says more) and the dialog's title name the
 * resource, and the confirming button names its kind ("Delete entry").
 */
export function DeleteButton({
  name,
  kind,
  verb = 'Delete',
  ariaLabel,
  message,
  action,
  onDone,
}: {
  /** The resource as the page shows it (its name, an address). */
  name: string;
  /** What the resource is, for the confirming button: "entry", "key", "workgroup". */
  kind: string;
  verb?: string;
  ariaLabel?: string;
  message: ReactNode;
  action(): Promise<unknown>;
  onDone?(): void;
}) {
  return (
    <ConfirmButton
      label={verb}
      ariaLabel={ariaLabel ?? `${verb} ${name}`}
      title={`${verb} ${name}?`}
      message={message}
      confirmLabel={`${verb} ${kind}`}
      danger
      action={action}
      onDone={onDone}
    />
  );
}
