export * from './envelope.ts';
export * from './user.ts';
