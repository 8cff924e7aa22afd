export * from './envelope.ts';
export * from './user.ts';
export * from './market.ts';
export * from './trading.ts';
export * from './netting.ts';
export * from './contractRules.ts';
