import { createPlayerFromFile } from './player.ts';
import { createSimulator } from './simulator.ts';
import { loadMarketConfig, type MarketConfig, type MarketSource } from './source.ts';

/**
 * Builds the market source the config asks for: the simulator (MARKET_SOURCE=sim, seeded by
 * MARKET_SEED) or the recorded-feed player (MARKET_SOURCE=recorded, MARKET_FIXTURE at
 * MARKET_SPEED). `startMs` is normally `clock.now()`.
 */
export function createMarketSource(startMs: number, config: MarketConfig = loadMarketConfig()): MarketSource {
  if (config.source === 'recorded') return createPlayerFromFile(config.fixturePath, { startMs, speed: config.speed });
  return createSimulator({ seed: config.seed, startMs });
}
