/**
 * Sentence templates for agenda passages (one paragraph per event, spec §2.5). A passage is an opening that
 * names person, event and date, a sentence with start time, end time and location (or one sentence carrying
 * all facts), and flavour sentences from `agenda-events.ts`.
 *
 * Placeholders: {P} person; {aE} event with its article, as running text; {E} the event exactly as in the
 * table; {e} a verb-form event as running text ("watch a baseball game"); {D} the date phrase (no
 * preposition); {S}/{T} raw start/end time; {L} location (trimmed); {noun} the kind's noun; pronouns
 * {He} {he} {His} {his} {him}.
 */

/** Openings for noun-form events ("has a yoga class"). */
export const OPENINGS_NOUN: readonly string[] = [
  '{P} has {aE} scheduled on {D}.',
  'On {D}, {P} is attending {aE}.',
  '{P} will be at {aE} on {D}.',
  "{P}'s calendar for {D} includes {aE}.",
  '{P} is going to {aE} on {D}.',
  '{P} has signed up for {aE} on {D}.',
  "There is {aE} on {P}'s agenda for {D}.",
  '{P} is set to attend {aE} on {D}.',
  '{P} has booked {aE} for {D}.',
  'Mark the date: on {D}, {P} has {aE}.',
  'Coming up on {D}, {P} has {aE} planned.',
  '{P} penciled in {aE} for {D}.',
];

/** Openings for verb-form events ("plans to watch a baseball game"). */
export const OPENINGS_VERB: readonly string[] = [
  '{P} plans to {e} on {D}.',
  'On {D}, {P} is going to {e}.',
  '{P} has set aside time to {e} on {D}.',
  "{P}'s plan for {D} is to {e}.",
  '{P} will {e} on {D}.',
  'On {D}, {P} has decided to {e}.',
];

/** Openings that quote the calendar entry; they fit both forms. */
export const OPENINGS_QUOTED: readonly string[] = [
  '{P}\'s agenda lists "{E}" on {D}.',
  'An entry titled "{E}" appears in {P}\'s schedule for {D}.',
  'On {D}, {P}\'s calendar shows "{E}".',
  '{P} added "{E}" to {his} calendar for {D}.',
  'Under {D}, {P}\'s planner reads "{E}".',
];

/** Time-and-place sentences following an opening. */
export const TIME_PLACE: readonly string[] = [
  'It starts at {S} and ends at {T} at {L}.',
  'The {noun} runs from {S} to {T} at {L}.',
  'The {noun} takes place at {L} from {S} until {T}.',
  "From {S} to {T}, {he}'ll be at {L}.",
  'It is scheduled from {S} to {T}, and the venue is {L}.',
  '{He} needs to be at {L} by {S}, and things should wrap up at {T}.',
  'The {noun} begins at {S} at {L} and is expected to finish by {T}.',
  'Expect {him} at {L} between {S} and {T}.',
  "It's happening at {L}, starting at {S} and ending at {T}.",
  "{He}'ll be at {L} from {S} to {T}.",
  'The {noun} is set for {S} to {T}, held at {L}.',
  'Location: {L}. Time: {S} to {T}.',
];

/** Single sentences carrying every fact, for noun-form events. */
export const ALL_IN_ONE_NOUN: readonly string[] = [
  '{P} will attend {aE} at {L} on {D}, from {S} to {T}.',
  'On {D}, {P} has {aE} at {L} from {S} to {T}.',
  "{P}'s {E} is on {D} at {L}, running from {S} until {T}.",
  'From {S} to {T} on {D}, {P} will be at {L} for {aE}.',
];

/** Single sentences carrying every fact, for verb-form events. */
export const ALL_IN_ONE_VERB: readonly string[] = [
  'On {D}, {P} will {e} at {L} from {S} to {T}.',
  '{P} plans to {e} at {L} on {D}, starting at {S} and finishing at {T}.',
];

/** Single sentences carrying every fact, for both forms. */
export const ALL_IN_ONE_QUOTED: readonly string[] = [
  '"{E}" is on {P}\'s calendar for {D}: {S} to {T} at {L}.',
  '{P}\'s schedule for {D} has "{E}" at {L}, from {S} to {T}.',
];

/** Extra sentence for events spanning several days. */
export const MULTI_DAY: readonly string[] = [
  'The {noun} spans {days} days, so {he} has taken some time off.',
  "It's a {days}-day affair, and {he} has packed accordingly.",
];
