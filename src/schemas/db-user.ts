import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** A database user: the real service's IAM user fields it can fill, and the service's own. */
export const DbUserRecord = Component(
  'DbUserRecord',
  Type.Object(
    {
      id: Type.String(),
      username: Type.String(),
      enabled: Type.Boolean({ description: 'always true: a user exists until deleted' }),
      created: Timestamp,
      updated: Timestamp,
      workspace_id: Type.String(),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { description: 'A database user of a workspace; the gateway authenticates it. Never carries its password.' },
  ),
);
export type DbUserRecord = Static<typeof DbUserRecord>;

// Lengths are checked by the domain (with clearer reasons); the bounds here only stop abuse.
const Username = Type.String({ maxLength: 256 });

export const DbUserBody = Component(
  'DbUserBody',
  Body({
    username: Username,
    password: Type.String({
      maxLength: 1024,
      description: 'at least 12 characters of 3 kinds (lower, upper, digit, symbol); never returned',
    }),
  }),
);
export type DbUserBody = Static<typeof DbUserBody>;

export const DeleteDbUserBody = Component('DeleteDbUserBody', Body({ username: Username }));
export type DeleteDbUserBody = Static<typeof DeleteDbUserBody>;
