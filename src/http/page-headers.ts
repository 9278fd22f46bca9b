import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * The pages a browser shows, the web console and the API reference, hold an API key while
 * they are open: they run only their own scripts, talk only to this origin, are framed by
 * nobody, are never sniffed into another type, and send no Referer on.
 */
const common = "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The console (Vite's build): its own scripts and styles only. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " + common;

/**
 * The reference (Swagger UI): its own files, and the one style element its script builds in,
 * the logo of its top bar, allowed by its hash (a browser test fails on any other); the logo
 * that replaces it is a data: URL.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; " +
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; " +
  "img-src 'self' data:; connect-src 'self'; " +
  common;

/** An onRequest hook that sends a page's headers with every answer of its routes. */
export function pageHeaders(csp: string): onRequestHookHandler {
  const headers = {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
  return (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.headers(headers);
    done();
  };
}
