/**
 * A session's own state on top of the derived base world (issue 22 §3): what its writes created, changed and
 * deleted, and the entities its searches materialised by name. The base world is never stored or changed — an
 * entity is a pure function of (api, seed, resource, key) — so this overlay is all a session keeps, and two
 * sessions never see each other's writes. Plain JSON, updated immutably (a new overlay per call), so it can live
 * in the session's Durable Object storage and cross RPC.
 */

export interface MockOverlay {
  /** Field values that override the derived entity: resource → key → field → value. */
  facts: Record<string, Record<string, Record<string, unknown>>>;
  /** Keys created in this session, per resource, oldest first. */
  created: Record<string, string[]>;
  /** Keys deleted in this session, per resource. */
  deleted: Record<string, string[]>;
}

export function emptyOverlay(): MockOverlay {
  return { facts: {}, created: {}, deleted: {} };
}

export function factsOf(
  overlay: MockOverlay,
  resource: string,
  key: string,
): Record<string, unknown> | undefined {
  return overlay.facts[resource]?.[key];
}

export function isDeleted(overlay: MockOverlay, resource: string, key: string): boolean {
  return overlay.deleted[resource]?.includes(key) ?? false;
}

export function isCreated(overlay: MockOverlay, resource: string, key: string): boolean {
  return overlay.created[resource]?.includes(key) ?? false;
}

/** The overlay with `fields` merged into the entity's facts. */
export function withFacts(
  overlay: MockOverlay,
  resource: string,
  key: string,
  fields: Record<string, unknown>,
): MockOverlay {
  if (Object.keys(fields).length === 0) return overlay;
  const forResource = overlay.facts[resource] ?? {};
  return {
    ...overlay,
    facts: { ...overlay.facts, [resource]: { ...forResource, [key]: { ...forResource[key], ...fields } } },
  };
}

export function withCreated(overlay: MockOverlay, resource: string, key: string): MockOverlay {
  return {
    ...overlay,
    created: { ...overlay.created, [resource]: [...(overlay.created[resource] ?? []), key] },
  };
}

export function withDeleted(overlay: MockOverlay, resource: string, key: string): MockOverlay {
  if (isDeleted(overlay, resource, key)) return overlay;
  return {
    ...overlay,
    deleted: { ...overlay.deleted, [resource]: [...(overlay.deleted[resource] ?? []), key] },
  };
}
