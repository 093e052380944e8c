/**
 * core/util/single-flight.ts: one caller flies, the others see it busy until it lands — or until it is older than
 * waitMs (its request may have gone away), so nobody waits for ever; a flight that throws still lands.
 */
import { describe, expect, it } from 'vitest';
import { SingleFlight } from '../../core/util/single-flight.ts';

describe('SingleFlight', () => {
  it('is busy for others while a flight is young, not after it lands or once it is old', async () => {
    let t = 0;
    const flights = new SingleFlight(250, () => t);
    let land: () => void = () => {};
    const flying = flights.run('k', () => new Promise<void>((r) => (land = r)));
    expect(flights.busy('k')).toBe(true);
    expect(flights.busy('other')).toBe(false);
    t = 249;
    expect(flights.busy('k')).toBe(true);
    t = 250;
    expect(flights.busy('k')).toBe(false); // too old to wait for
    t = 0;
    land();
    await flying;
    expect(flights.busy('k')).toBe(false);
  });

  it('a flight that throws lands, and a newer flight of the key is not ended by an older one', async () => {
    const flights = new SingleFlight(1_000);
    await expect(flights.run('k', async () => Promise.reject(new Error('load failed')))).rejects.toThrow(
      'load failed',
    );
    expect(flights.busy('k')).toBe(false);
    let landOld: () => void = () => {};
    const old = flights.run('k', () => new Promise<void>((r) => (landOld = r)));
    let landNew: () => void = () => {};
    const newer = flights.run('k', () => new Promise<void>((r) => (landNew = r)));
    landOld();
    await old;
    expect(flights.busy('k')).toBe(true); // the newer flight is still in the air
    landNew();
    await newer;
    expect(flights.busy('k')).toBe(false);
  });
});
