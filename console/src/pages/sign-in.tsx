import { useTitle } from '../router.js';
import { useSessionState } from '../session.js';
import { Form, SubmitButton, TextField, text, useForm } from '../ui/forms.js';

export function SignInPage() {
  useTitle('Sign in');
  const { signIn, endedBecause } = useSessionState();
  const form = useForm();
  return (
    <main id="main" className="center">
      <div className="card signin">
        <h1>Acacia console</h1>
        <p className="muted">Sign in with an API key. It is kept in this browser tab only, until you sign out.</p>
        {endedBecause ? (
          <div className="banner banner-info" role="status">
            <p>{endedBecause}</p>
          </div>
        ) : null}
        <Form form={form} onSubmit={(data) => signIn(text(data, 'x-api-key') ?? '')} label="Sign in">
          <TextField
            name="x-api-key"
            label="API key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="acacia_sk_…"
            autoFocus
          />
          <div className="actions">
            <SubmitButton>Sign in</SubmitButton>
          </div>
        </Form>
      </div>
    </main>
  );
}
