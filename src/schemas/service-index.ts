import { Type, type Static } from '@sinclair/typebox';

/** `GET /` for a client that does not ask for HTML: where to go next. */
export const ServiceIndex = Type.Object({
  name: Type.String(),
  version: Type.String(),
  links: Type.Object({
    console: Type.String({ description: 'the web console' }),
    docs: Type.String({ description: 'the browsable API reference' }),
    openapi: Type.String({ description: 'the OpenAPI 3.1 document' }),
  }),
});
export type ServiceIndex = Static<typeof ServiceIndex>;
