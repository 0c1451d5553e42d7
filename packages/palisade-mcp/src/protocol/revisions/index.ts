/** Every revision's table, and the one lookup the core uses to find the table it serves under. */
import type { Revision } from '../../revisions.js';
import { PROFILE_2024_11_05 } from './2024-11-05.js';
import { PROFILE_2025_03_26 } from './2025-03-26.js';
import { PROFILE_2025_06_18 } from './2025-06-18.js';
import { PROFILE_2025_11_25 } from './2025-11-25.js';
import { PROFILE_2026_07_28 } from './2026-07-28.js';
import type { RevisionProfile, Transport } from './profile.js';

export type { RevisionFields, RevisionProfile, Transport } from './profile.js';

const PROFILES: ReadonlyMap<Revision, RevisionProfile> = new Map(
  [PROFILE_2026_07_28, PROFILE_2025_11_25, PROFILE_2025_06_18, PROFILE_2025_03_26, PROFILE_2024_11_05].map(
    (profile) => [profile.revision, profile],
  ),
);

export function profileOf(revision: Revision): RevisionProfile {
  return PROFILES.get(revision) as RevisionProfile;
}

/** Whether `revision` is served over `transport` at all (before the host's `supportedVersions` narrows it). */
export function carriedOver(revision: Revision, transport: Transport): boolean {
  return profileOf(revision).transports.includes(transport);
}

// A server's `supportedVersions` is one frozen array for its life: what it serves over each
// transport is worked out once, not on every request (a filter per request was measurable).
const served = new WeakMap<readonly Revision[], Readonly<Record<Transport, readonly Revision[]>>>();

/** The revisions of `supported` (newest first) that are served over `transport`. */
export function servedOver(supported: readonly Revision[], transport: Transport): readonly Revision[] {
  let byTransport = served.get(supported);
  if (byTransport === undefined) {
    const over = (carrier: Transport) =>
      Object.freeze(supported.filter((revision) => carriedOver(revision, carrier)));
    byTransport = Object.freeze({ stdio: over('stdio'), http: over('http') });
    served.set(supported, byTransport);
  }
  return byTransport[transport];
}
