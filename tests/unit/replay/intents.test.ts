import { describe, expect, it } from 'vitest';
import { isWellFormedIntent } from '../../../src/core/replay/intents.ts';

describe('isWellFormedIntent: recorded intents are checked before they reach a machine', () => {
  it('accepts the events the actors take', () => {
    expect(isWellFormedIntent('market', { type: 'socket.subscribe', topics: ['btcusdt@depth'] })).toBe(true);
    expect(isWellFormedIntent('user', { type: 'socket.setToken', token: null })).toBe(true);
    expect(isWellFormedIntent('session', { type: 'user.login', code: '<redacted:code#1>' })).toBe(true);
  });

  it('refuses missing or mistyped fields, unknown types and events meant for another actor', () => {
    expect(isWellFormedIntent('market', { type: 'socket.subscribe' })).toBe(false);
    expect(isWellFormedIntent('market', { type: 'socket.subscribe', topics: 'btcusdt@depth' })).toBe(false);
    expect(isWellFormedIntent('session', { type: 'user.checkAuthType', email: 'a@b.c' })).toBe(false);
    expect(isWellFormedIntent('session', { type: 'socket.start' })).toBe(false);
    expect(isWellFormedIntent('market', { type: 'user.logout' })).toBe(false);
    expect(isWellFormedIntent('market', null)).toBe(false);
  });
});
