import { useEffect, useState } from 'react';

/**
 * Copies `text` to the clipboard and says so for a moment. Where the clipboard is refused (a
 * page not served securely), the text stays on the page to be selected by hand.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) return setState('refused');
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('refused'),
    );
  };
  return (
    <button type="button" className="copy" aria-label={`Copy ${label}`} onClick={copy}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'refused' ? 'Select to copy' : 'Copy'}</span>
    </button>
  );
}

/** A value shown in code type with its copy button beside it. */
export function Copyable({ text, label, testId }: { text: string; label: string; testId?: string }) {
  return (
    <span className="copyable">
      <code data-testid={testId}>{text}</code>
      <CopyButton text={text} label={label} />
    </span>
  );
}

/** A block of code (a command, a snippet) with its copy button. */
export function CodeBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <div className="code-block">
      <pre>
        <code data-testid={testId}>{code}</code>
      </pre>
      <CopyButton text={code} label={label} />
    </div>
  );
}
