import {
  createContext,
  useContext,
  useId,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { ApiError } from '../api/http.js';
import type { ErrorDetail } from '../api/types.js';

export interface FormState {
  /** Reason by field name, for the fields this form has. */
  errors: Record<string, string>;
  /** Errors that name no field of the form. */
  banner: string[];
  busy: boolean;
}

interface FormApi extends FormState {
  ref: React.RefObject<HTMLFormElement | null>;
  /** Runs an action, showing what the API refused next to the fields it names, or in the banner. */
  run(action: () => Promise<void>): Promise<boolean>;
  clear(): void;
}

function describe(err: unknown): ErrorDetail[] {
  if (err instanceof ApiError) {
    return err.details.length ? err.details : [{ FieldName: '', Reason: err.message, Type: 'Unknown' }];
  }
  return [{ FieldName: '', Reason: err instanceof Error ? err.message : String(err), Type: 'Unknown' }];
}

export function useForm(): FormApi {
  const ref = useRef<HTMLFormElement | null>(null);
  const [state, setState] = useState<FormState>({ errors: {}, banner: [], busy: false });
  const run = async (action: () => Promise<void>) => {
    setState({ errors: {}, banner: [], busy: true });
    try {
      await action();
      setState({ errors: {}, banner: [], busy: false });
      return true;
    } catch (err) {
      const errors: Record<string, string> = {};
      const banner: string[] = [];
      const form = ref.current;
      for (const d of describe(err)) {
        const field = d.FieldName && form?.elements.namedItem(d.FieldName);
        if (field) errors[d.FieldName] = errors[d.FieldName] ? `${errors[d.FieldName]} ${d.Reason}` : d.Reason;
        else banner.push(d.FieldName ? `${d.FieldName}: ${d.Reason}` : d.Reason);
      }
      setState({ errors, banner, busy: false });
      // Focus the first field at fault, so keyboard and screen-reader users land on it.
      const first = Object.keys(errors)[0];
      if (first) queueMicrotask(() => (form?.elements.namedItem(first) as HTMLElement | null)?.focus?.());
      return false;
    }
  };
  return { ...state, ref, run, clear: () => setState({ errors: {}, banner: [], busy: false }) };
}

const FormContext = createContext<FormApi | undefined>(undefined);

/**
 * A form whose fields show the API's Reason next to them; the browser's own checks are off so every rule is the
 * server's.
 */
export function Form({
  form,
  onSubmit,
  children,
  className,
  label,
}: {
  form: FormApi;
  onSubmit(data: FormData): Promise<void>;
  children: ReactNode;
  className?: string;
  label?: string;
}) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    void form.run(() => onSubmit(data));
  };
  return (
    <FormContext.Provider value={form}>
      <form ref={form.ref} onSubmit={submit} noValidate className={className} aria-label={label}>
        <Banner messages={form.banner} />
        {children}
      </form>
    </FormContext.Provider>
  );
}

export function Banner({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  return (
    <div className="banner banner-error" role="alert">
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <ul>
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface FieldProps {
  name: string;
  label: string;
  hint?: ReactNode;
}

/**
 * A field's ids and error, and `control`: the attributes of its input or select (named for the
 * API's FieldName, invalid while refused, described by its error, then its hint).
 */
function useField(name: string, hint: ReactNode) {
  const form = useContext(FormContext);
  const id = useId();
  const error = form?.errors[name];
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const control = {
    id,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined,
  };
  return { frame: { id, error, errorId, hintId }, control };
}

function FieldFrame({
  id,
  label,
  hint,
  hintId,
  error,
  errorId,
  children,
  inline,
}: {
  id: string;
  label: string;
  hint: ReactNode;
  hintId: string;
  error: string | undefined;
  errorId: string;
  children: ReactNode;
  inline?: boolean;
}) {
  return (
    <div className={inline ? 'field field-inline' : 'field'}>
      {inline ? children : null}
      <label htmlFor={id}>{label}</label>
      {inline ? null : children}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({
  name,
  label,
  hint,
  ...input
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>) {
  const f = useField(name, hint);
  return (
    <FieldFrame {...f.frame} label={label} hint={hint}>
      <input type="text" {...input} {...f.control} />
    </FieldFrame>
  );
}

/** A select's options from labels by value, in the order given. */
export function choices(labels: Readonly<Record<string, string>>): Array<{ value: string; label: string }> {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}

export function SelectField({
  name,
  label,
  hint,
  options,
  defaultValue,
  onChange,
}: FieldProps & {
  options: Array<{ value: string; label: string; disabled?: boolean }>;
  defaultValue?: string;
  onChange?: (value: string) => void;
}) {
  const f = useField(name, hint);
  return (
    <FieldFrame {...f.frame} label={label} hint={hint}>
      <select
        {...f.control}
        defaultValue={defaultValue}
        onChange={onChange ? (e) => onChange(e.target.value) : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function CheckboxField({
  name,
  label,
  hint,
  defaultChecked,
  onChange,
}: FieldProps & { defaultChecked?: boolean; onChange?: (checked: boolean) => void }) {
  const f = useField(name, hint);
  return (
    <FieldFrame {...f.frame} label={label} hint={hint} inline>
      <input
        type="checkbox"
        {...f.control}
        defaultChecked={defaultChecked}
        onChange={onChange ? (e) => onChange(e.target.checked) : undefined}
      />
    </FieldFrame>
  );
}

export function SubmitButton({ children, danger }: { children: ReactNode; danger?: boolean }) {
  const form = useContext(FormContext);
  return (
    <button type="submit" className={danger ? 'danger' : 'primary'} disabled={form?.busy}>
      {children}
    </button>
  );
}

// ---- reading a submitted form: empty means "not given", so the server's default applies ----

export function text(data: FormData, name: string): string | undefined {
  const v = data.get(name);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A whole number; anything else goes to the server as typed, which names the field. */
export function int(data: FormData, name: string): number | undefined {
  const v = text(data, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : (v as unknown as number);
}

export function checked(data: FormData, name: string): boolean {
  return data.get(name) === 'on';
}
