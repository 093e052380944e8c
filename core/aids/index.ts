export * from './providers.ts';
export * from './slots.ts';
