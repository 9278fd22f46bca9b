import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from './helpers.js';

export const DbUserRecord = Type.Object({
  username: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type DbUserRecord = Static<typeof DbUserRecord>;

// Lengths are checked by the domain (with clearer reasons); the bounds here only stop abuse.
const Username = Type.String({ maxLength: 256 });

export const DbUserBody = Body({
  username: Username,
  password: Type.String({ maxLength: 1024, description: 'at least 12 characters of 3 kinds (lower, upper, digit, symbol); never returned' }),
});
export type DbUserBody = Static<typeof DbUserBody>;

export const DeleteDbUserBody = Body({ username: Username });
export type DeleteDbUserBody = Static<typeof DeleteDbUserBody>;
