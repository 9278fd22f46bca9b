import { Type, type Static } from '@sinclair/typebox';

/** GET /console/config.json: what the web console reads at start beside the API. */
export const ConsoleConfig = Type.Object({
  version: Type.String(),
  gateway_url: Type.Union([Type.String(), Type.Null()], {
    description: "the data-plane gateway's base URL as a browser reaches it; null when this process runs none",
  }),
});
export type ConsoleConfig = Static<typeof ConsoleConfig>;
