/**
 * The benchmark documents the API tests import, as text: RestBench's TMDB description (1.31 MB), STE's function
 * catalog and ToolAlpaca's simulated APIs. vitest.config.ts reads them in Node and hands them over as bindings; as
 * modules they would travel over the WebSocket that brings workerd its modules, whose messages are limited to 1 MiB.
 */
import { env } from 'cloudflare:workers';

export const tmdbText: string = env.TEST_TMDB_OAS;
export const steText: string = env.TEST_STE_CATALOG;
export const toolAlpacaText: string = env.TEST_TOOLALPACA;
