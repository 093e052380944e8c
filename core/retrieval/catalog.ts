/**
 * A seeded synthetic tool catalog — the development benchmark of issue 14 §2. Tools are the product of
 * domain × entity × action × qualifier (25 × 8 × 14 × 36 = 100,800 combinations), each with a name (camelCase
 * or snake_case), a description written from one of several templates, and JSON-Schema parameters. Queries are
 * natural-language requests composed from *different* phrasings: verb, entity and qualifier synonyms, several
 * sentence frames and slot values, so a query shares only part of its words with its tool's description (as
 * real users do) and a lexical ranker is good but not perfect.
 *
 * Splits: `seen` tools have `trainPerTool` training queries plus dev queries and seen-test queries, all with
 * distinct wording; `unseen` tools appear only in test queries (spec "seen"/"unseen"). Everything is a pure
 * function of the seed.
 */
import { drain } from '../util/pacer.ts';
import { Rng, type Seed } from '../util/random.ts';
import type { QueryExample, Tool } from './types.ts';

interface Entity {
  one: string;
  many: string;
  /** Other words users say for it. */
  alt: string[];
}

const e = (one: string, many: string, ...alt: string[]): Entity => ({ one, many, alt });

const DOMAINS: Array<{ slug: string; label: string; entities: Entity[] }> = [
  {
    slug: 'billing',
    label: 'billing',
    entities: [
      e('invoice', 'invoices', 'bill', 'statement'),
      e('payment', 'payments', 'charge', 'transaction'),
      e('refund', 'refunds', 'reimbursement', 'money back'),
      e('subscription', 'subscriptions', 'plan', 'membership'),
      e('coupon', 'coupons', 'discount code', 'promo'),
      e('tax rate', 'tax rates', 'vat rate', 'sales tax'),
      e('credit note', 'credit notes', 'credit memo', 'account credit'),
      e('payout', 'payouts', 'disbursement', 'settlement'),
    ],
  },
  {
    slug: 'travel',
    label: 'travel',
    entities: [
      e('flight', 'flights', 'plane trip', 'air ticket'),
      e('hotel booking', 'hotel bookings', 'room reservation', 'hotel stay'),
      e('rental car', 'rental cars', 'hire car', 'car rental'),
      e('itinerary', 'itineraries', 'trip plan', 'travel plan'),
      e('boarding pass', 'boarding passes', 'gate pass', 'check-in pass'),
      e('visa application', 'visa applications', 'entry permit', 'travel visa'),
      e('airport lounge', 'airport lounges', 'lounge access', 'waiting lounge'),
      e('train ticket', 'train tickets', 'rail fare', 'railway ticket'),
    ],
  },
  {
    slug: 'weather',
    label: 'weather',
    entities: [
      e('forecast', 'forecasts', 'outlook', 'prediction'),
      e('storm alert', 'storm alerts', 'severe weather warning', 'weather warning'),
      e('temperature reading', 'temperature readings', 'thermometer value', 'how hot it is'),
      e('rainfall record', 'rainfall records', 'precipitation total', 'rain amount'),
      e('air quality index', 'air quality indexes', 'pollution level', 'smog reading'),
      e('uv index', 'uv indexes', 'sunburn risk', 'sun strength'),
      e('wind report', 'wind reports', 'gust speed', 'wind speed'),
      e('snow depth', 'snow depths', 'snowpack', 'snow cover'),
    ],
  },
  {
    slug: 'hr',
    label: 'human resources',
    entities: [
      e('employee', 'employees', 'staff member', 'worker'),
      e('leave request', 'leave requests', 'time off', 'vacation request'),
      e('payslip', 'payslips', 'salary slip', 'pay stub'),
      e('job opening', 'job openings', 'vacancy', 'open position'),
      e('performance review', 'performance reviews', 'appraisal', 'evaluation'),
      e('timesheet', 'timesheets', 'hours worked', 'time card'),
      e('benefit enrollment', 'benefit enrollments', 'perk signup', 'insurance enrollment'),
      e('onboarding task', 'onboarding tasks', 'new hire checklist', 'starter task'),
    ],
  },
  {
    slug: 'crm',
    label: 'customer relationship',
    entities: [
      e('contact', 'contacts', 'person', 'lead'),
      e('deal', 'deals', 'opportunity', 'sale in progress'),
      e('support ticket', 'support tickets', 'help request', 'complaint'),
      e('campaign', 'campaigns', 'marketing push', 'promotion'),
      e('account note', 'account notes', 'client memo', 'customer remark'),
      e('meeting', 'meetings', 'call with a client', 'appointment'),
      e('quote', 'quotes', 'price offer', 'estimate'),
      e('pipeline stage', 'pipeline stages', 'sales step', 'funnel stage'),
    ],
  },
  {
    slug: 'inventory',
    label: 'inventory',
    entities: [
      e('product', 'products', 'item', 'article'),
      e('stock level', 'stock levels', 'quantity on hand', 'units left'),
      e('warehouse', 'warehouses', 'depot', 'storage site'),
      e('purchase order', 'purchase orders', 'supplier order', 'po'),
      e('supplier', 'suppliers', 'vendor', 'manufacturer'),
      e('shipment', 'shipments', 'delivery', 'consignment'),
      e('barcode', 'barcodes', 'sku label', 'product code'),
      e('stock transfer', 'stock transfers', 'goods movement', 'relocation of goods'),
    ],
  },
  {
    slug: 'health',
    label: 'health',
    entities: [
      e('appointment', 'appointments', 'doctor visit', 'consultation'),
      e('prescription', 'prescriptions', 'medication order', 'script'),
      e('lab result', 'lab results', 'blood test', 'test outcome'),
      e('vaccination record', 'vaccination records', 'immunisation', 'vaccine shot'),
      e('allergy', 'allergies', 'intolerance', 'allergic reaction'),
      e('insurance claim', 'insurance claims', 'medical claim', 'reimbursement claim'),
      e('heart rate log', 'heart rate logs', 'pulse reading', 'bpm history'),
      e('sleep record', 'sleep records', 'night of sleep', 'rest data'),
    ],
  },
  {
    slug: 'music',
    label: 'music streaming',
    entities: [
      e('song', 'songs', 'track', 'tune'),
      e('playlist', 'playlists', 'mix', 'song list'),
      e('album', 'albums', 'record', 'lp'),
      e('artist', 'artists', 'band', 'singer'),
      e('podcast episode', 'podcast episodes', 'show episode', 'audio episode'),
      e('lyric', 'lyrics', 'song words', 'verse text'),
      e('concert', 'concerts', 'live show', 'gig'),
      e('listening history', 'listening histories', 'recently played', 'play history'),
    ],
  },
  {
    slug: 'food',
    label: 'food delivery',
    entities: [
      e('restaurant', 'restaurants', 'eatery', 'place to eat'),
      e('menu item', 'menu items', 'dish', 'meal'),
      e('food order', 'food orders', 'takeaway order', 'delivery order'),
      e('courier', 'couriers', 'delivery driver', 'rider'),
      e('recipe', 'recipes', 'cooking instructions', 'how to cook'),
      e('grocery list', 'grocery lists', 'shopping list', 'things to buy'),
      e('table reservation', 'table reservations', 'dinner booking', 'seat booking'),
      e('nutrition fact', 'nutrition facts', 'calorie count', 'macro breakdown'),
    ],
  },
  {
    slug: 'devops',
    label: 'developer operations',
    entities: [
      e('deployment', 'deployments', 'release', 'rollout'),
      e('build', 'builds', 'ci run', 'compile job'),
      e('server', 'servers', 'host', 'machine'),
      e('log entry', 'log entries', 'log line', 'event log'),
      e('incident', 'incidents', 'outage', 'page'),
      e('dns record', 'dns records', 'domain entry', 'hostname mapping'),
      e('secret', 'secrets', 'credential', 'api token'),
      e('container image', 'container images', 'docker image', 'image tag'),
    ],
  },
  {
    slug: 'files',
    label: 'file storage',
    entities: [
      e('file', 'files', 'document', 'attachment'),
      e('folder', 'folders', 'directory', 'drive location'),
      e('share link', 'share links', 'public url', 'sharing link'),
      e('file version', 'file versions', 'revision', 'older copy'),
      e('storage quota', 'storage quotas', 'disk space', 'space left'),
      e('backup', 'backups', 'snapshot', 'saved copy'),
      e('trash item', 'trash items', 'deleted file', 'bin content'),
      e('file comment', 'file comments', 'annotation', 'review note'),
    ],
  },
  {
    slug: 'mail',
    label: 'email',
    entities: [
      e('email', 'emails', 'message', 'mail'),
      e('draft', 'drafts', 'unsent message', 'message in progress'),
      e('mail filter', 'mail filters', 'inbox rule', 'sorting rule'),
      e('mailing list', 'mailing lists', 'distribution list', 'group address'),
      e('signature', 'signatures', 'sign-off block', 'email footer'),
      e('auto reply', 'auto replies', 'out of office', 'vacation responder'),
      e('label', 'labels', 'tag on mail', 'mail category'),
      e('spam report', 'spam reports', 'junk report', 'phishing report'),
    ],
  },
  {
    slug: 'calendar',
    label: 'calendar',
    entities: [
      e('event', 'events', 'entry in my calendar', 'scheduled item'),
      e('reminder', 'reminders', 'alert', 'nudge'),
      e('room booking', 'room bookings', 'meeting room', 'conference room'),
      e('availability slot', 'availability slots', 'free time', 'open slot'),
      e('holiday', 'holidays', 'public holiday', 'day off'),
      e('invitation', 'invitations', 'invite', 'rsvp'),
      e('time zone setting', 'time zone settings', 'clock region', 'local time setting'),
      e('recurring series', 'recurring series', 'repeating event', 'weekly series'),
    ],
  },
  {
    slug: 'banking',
    label: 'banking',
    entities: [
      e('bank account', 'bank accounts', 'checking account', 'savings account'),
      e('card', 'cards', 'debit card', 'credit card'),
      e('transfer', 'transfers', 'wire', 'money transfer'),
      e('loan', 'loans', 'mortgage', 'credit line'),
      e('standing order', 'standing orders', 'scheduled payment', 'direct debit'),
      e('exchange rate', 'exchange rates', 'fx rate', 'currency price'),
      e('balance', 'balances', 'money available', 'funds'),
      e('fraud alert', 'fraud alerts', 'suspicious activity', 'security warning'),
    ],
  },
  {
    slug: 'realestate',
    label: 'real estate',
    entities: [
      e('listing', 'listings', 'property for sale', 'house ad'),
      e('viewing', 'viewings', 'house tour', 'property visit'),
      e('lease', 'leases', 'rental contract', 'tenancy'),
      e('tenant', 'tenants', 'renter', 'occupant'),
      e('maintenance request', 'maintenance requests', 'repair job', 'fix request'),
      e('valuation', 'valuations', 'price estimate', 'appraised value'),
      e('mortgage offer', 'mortgage offers', 'home loan offer', 'lending offer'),
      e('floor plan', 'floor plans', 'layout drawing', 'room layout'),
    ],
  },
  {
    slug: 'education',
    label: 'education',
    entities: [
      e('course', 'courses', 'class', 'module'),
      e('assignment', 'assignments', 'homework', 'coursework'),
      e('grade', 'grades', 'mark', 'score'),
      e('student', 'students', 'pupil', 'learner'),
      e('exam', 'exams', 'test', 'final'),
      e('lecture recording', 'lecture recordings', 'class video', 'recorded lesson'),
      e('enrollment', 'enrollments', 'registration', 'sign-up for a class'),
      e('library loan', 'library loans', 'borrowed book', 'checked-out book'),
    ],
  },
  {
    slug: 'social',
    label: 'social network',
    entities: [
      e('post', 'posts', 'status update', 'update'),
      e('follower', 'followers', 'fan', 'subscriber'),
      e('direct message', 'direct messages', 'dm', 'private chat'),
      e('group', 'groups', 'community', 'circle'),
      e('photo', 'photos', 'picture', 'image'),
      e('story', 'stories', 'short clip', 'disappearing post'),
      e('hashtag', 'hashtags', 'topic tag', 'trend'),
      e('friend request', 'friend requests', 'connection request', 'add request'),
    ],
  },
  {
    slug: 'sports',
    label: 'sports',
    entities: [
      e('match', 'matches', 'game', 'fixture'),
      e('team', 'teams', 'club', 'squad'),
      e('player', 'players', 'athlete', 'sportsperson'),
      e('league table', 'league tables', 'standings', 'ranking table'),
      e('score update', 'score updates', 'live score', 'result'),
      e('ticket', 'tickets', 'seat for the game', 'stadium pass'),
      e('training session', 'training sessions', 'practice', 'workout drill'),
      e('injury report', 'injury reports', 'fitness news', 'injury list'),
    ],
  },
  {
    slug: 'maps',
    label: 'maps and navigation',
    entities: [
      e('route', 'routes', 'directions', 'way to get there'),
      e('place', 'places', 'point of interest', 'location'),
      e('traffic report', 'traffic reports', 'congestion', 'jam'),
      e('parking spot', 'parking spots', 'car park', 'garage space'),
      e('transit line', 'transit lines', 'bus route', 'metro line'),
      e('saved location', 'saved locations', 'favourite place', 'pinned spot'),
      e('elevation profile', 'elevation profiles', 'height map', 'climb profile'),
      e('charging station', 'charging stations', 'ev charger', 'plug point'),
    ],
  },
  {
    slug: 'news',
    label: 'news',
    entities: [
      e('article', 'articles', 'story', 'news piece'),
      e('headline', 'headlines', 'top story', 'breaking news'),
      e('news source', 'news sources', 'publisher', 'outlet'),
      e('topic feed', 'topic feeds', 'news channel', 'subject stream'),
      e('newsletter', 'newsletters', 'digest', 'bulletin'),
      e('fact check', 'fact checks', 'claim review', 'verification'),
      e('comment thread', 'comment threads', 'discussion', 'reader comments'),
      e('bookmark', 'bookmarks', 'saved article', 'read later item'),
    ],
  },
  {
    slug: 'iot',
    label: 'smart home',
    entities: [
      e('thermostat', 'thermostats', 'heating control', 'climate control'),
      e('light', 'lights', 'lamp', 'bulb'),
      e('door lock', 'door locks', 'smart lock', 'front door'),
      e('security camera', 'security cameras', 'doorbell camera', 'cctv'),
      e('energy meter', 'energy meters', 'power usage', 'electricity meter'),
      e('scene', 'scenes', 'automation', 'routine'),
      e('sensor reading', 'sensor readings', 'motion sensor', 'humidity sensor'),
      e('appliance', 'appliances', 'washing machine', 'dishwasher'),
    ],
  },
  {
    slug: 'legal',
    label: 'legal',
    entities: [
      e('contract', 'contracts', 'agreement', 'signed deal'),
      e('case file', 'case files', 'lawsuit', 'court case'),
      e('clause', 'clauses', 'provision', 'contract term'),
      e('signature request', 'signature requests', 'e-sign request', 'signing envelope'),
      e('trademark', 'trademarks', 'brand registration', 'logo protection'),
      e('compliance check', 'compliance checks', 'audit item', 'regulatory check'),
      e('court date', 'court dates', 'hearing', 'trial date'),
      e('legal hold', 'legal holds', 'preservation notice', 'litigation hold'),
    ],
  },
  {
    slug: 'shop',
    label: 'online shop',
    entities: [
      e('cart', 'carts', 'basket', 'shopping bag'),
      e('order', 'orders', 'purchase', 'checkout'),
      e('review', 'reviews', 'rating', 'customer feedback'),
      e('wishlist', 'wishlists', 'saved items', 'wish list'),
      e('return', 'returns', 'send back', 'exchange'),
      e('gift card', 'gift cards', 'voucher', 'store credit'),
      e('price alert', 'price alerts', 'price drop watch', 'deal alert'),
      e('delivery slot', 'delivery slots', 'delivery window', 'drop-off time'),
    ],
  },
  {
    slug: 'games',
    label: 'gaming',
    entities: [
      e('achievement', 'achievements', 'trophy', 'badge'),
      e('leaderboard', 'leaderboards', 'high score table', 'top players'),
      e('save game', 'save games', 'save file', 'progress slot'),
      e('match lobby', 'match lobbies', 'game room', 'multiplayer lobby'),
      e('in-game item', 'in-game items', 'loot', 'gear'),
      e('friend list', 'friend lists', 'gaming buddies', 'party members'),
      e('tournament', 'tournaments', 'cup', 'competition'),
      e('game server', 'game servers', 'realm', 'shard'),
    ],
  },
  {
    slug: 'energy',
    label: 'utilities',
    entities: [
      e('meter reading', 'meter readings', 'usage reading', 'gas reading'),
      e('tariff', 'tariffs', 'price plan', 'energy rate'),
      e('outage report', 'outage reports', 'power cut', 'blackout'),
      e('solar output', 'solar outputs', 'panel production', 'pv generation'),
      e('water usage', 'water usages', 'water consumption', 'litres used'),
      e('utility bill', 'utility bills', 'energy bill', 'electric bill'),
      e('smart plug', 'smart plugs', 'switched socket', 'plug adapter'),
      e('carbon footprint', 'carbon footprints', 'co2 emissions', 'emission estimate'),
    ],
  },
];

interface Action {
  verb: string;
  /** Description opening (third person). */
  says: string[];
  /** How users ask for it; `{e}` is the entity phrase. */
  asks: string[];
  plural: boolean;
}

const ACTIONS: Action[] = [
  {
    verb: 'get',
    says: ['Returns one', 'Fetches a single', 'Retrieves the details of one'],
    asks: [
      'show me the {e}',
      'what does the {e} look like',
      'pull up the {e}',
      'i need the details of the {e}',
    ],
    plural: false,
  },
  {
    verb: 'list',
    says: ['Lists', 'Returns all', 'Enumerates'],
    asks: ['show all my {e}', 'which {e} are there', 'give me every {e}', 'what {e} do i have'],
    plural: true,
  },
  {
    verb: 'create',
    says: ['Creates a new', 'Adds a', 'Registers a new'],
    asks: ['make a new {e}', 'add another {e}', 'set up a {e}', 'i want to start a {e}'],
    plural: false,
  },
  {
    verb: 'update',
    says: ['Updates an existing', 'Modifies a', 'Edits the fields of a'],
    asks: ['change the {e}', 'edit my {e}', 'fix the details on the {e}', 'amend the {e}'],
    plural: false,
  },
  {
    verb: 'delete',
    says: ['Deletes a', 'Permanently removes a', 'Erases a'],
    asks: ['remove the {e}', 'get rid of the {e}', 'throw away that {e}', 'wipe the {e}'],
    plural: false,
  },
  {
    verb: 'search',
    says: ['Searches', 'Finds matching', 'Looks up'],
    asks: ['find {e}', 'look for {e}', 'hunt down any {e}', 'is there a way to locate {e}'],
    plural: true,
  },
  {
    verb: 'count',
    says: ['Counts', 'Returns the number of', 'Tallies'],
    asks: [
      'how many {e} are there',
      'give me a total of the {e}',
      'what is the number of {e}',
      'tally up the {e}',
    ],
    plural: true,
  },
  {
    verb: 'export',
    says: ['Exports', 'Downloads as CSV the', 'Writes a spreadsheet of'],
    asks: [
      'download the {e} as a spreadsheet',
      'save the {e} to csv',
      'i need a file with the {e}',
      'dump the {e} into excel',
    ],
    plural: true,
  },
  {
    verb: 'archive',
    says: ['Archives a', 'Moves to cold storage a', 'Hides without deleting a'],
    asks: [
      'put the {e} away in the archive',
      'stash the old {e}',
      'file away the {e}',
      'tuck the {e} out of sight',
    ],
    plural: false,
  },
  {
    verb: 'share',
    says: ['Shares a', 'Grants another user access to a', 'Sends a link to a'],
    asks: [
      'let my colleague see the {e}',
      'send the {e} to a coworker',
      'give someone access to the {e}',
      'pass the {e} along to a teammate',
    ],
    plural: false,
  },
  {
    verb: 'summarize',
    says: ['Summarizes', 'Produces a short digest of the', 'Aggregates statistics over the'],
    asks: [
      'give me a quick overview of the {e}',
      'boil down the {e}',
      'what is the gist of the {e}',
      'recap the {e} for me',
    ],
    plural: true,
  },
  {
    verb: 'validate',
    says: ['Validates a', 'Checks for errors in a', 'Verifies the consistency of a'],
    asks: [
      'check the {e} is correct',
      'is the {e} valid',
      'make sure the {e} has no mistakes',
      'sanity-check the {e}',
    ],
    plural: false,
  },
  {
    verb: 'subscribe',
    says: ['Subscribes to changes of', 'Registers a webhook for updates to', 'Watches for changes on'],
    asks: [
      'notify me when the {e} change',
      'ping me on updates to the {e}',
      'keep an eye on the {e} for me',
      'alert me if any {e} is modified',
    ],
    plural: true,
  },
  {
    verb: 'restore',
    says: ['Restores a', 'Brings back a previously removed', 'Undeletes a'],
    asks: ['bring back the {e}', 'undo the removal of the {e}', 'recover the lost {e}', 'get the {e} back'],
    plural: false,
  },
];

interface Qualifier {
  key: string;
  /** Name suffix words. */
  name: string;
  /** Description clause. */
  says: string;
  /** How users phrase it; `{v}` is a sampled value. */
  asks: string[];
  values: string[];
  param: { name: string; type: string; description: string };
}

const q = (
  key: string,
  name: string,
  says: string,
  asks: string[],
  values: string[],
  type = 'string',
): Qualifier => ({ key, name, says, asks, values, param: { name: key, type, description: says } });

const PLACES = ['north', 'south', 'berlin', 'tokyo', 'lagos', 'lima', 'the east coast', 'europe'];
const PEOPLE = ['maria', 'ken', 'aisha', 'john', 'wei', 'olga', 'pedro', 'sam'];
const DAYS = [
  'yesterday',
  'last monday',
  'march 3rd',
  'the 14th',
  'new year',
  'last week',
  'today',
  'friday',
];
const QUALIFIERS: Qualifier[] = [
  q(
    'id',
    'by id',
    'identified by its unique id',
    ['with id {v}', 'number {v}', 'whose identifier is {v}'],
    ['4411', 'a-93', '77b', '1200'],
  ),
  q(
    'name',
    'by name',
    'matched by exact name',
    ['called {v}', 'named {v}', 'with the title {v}'],
    ['alpha', 'blue sky', 'q3 plan', 'atlas'],
  ),
  q(
    'date_range',
    'by date range',
    'within a start and end date',
    ['between {v} and now', 'from {v} onwards', 'since {v}'],
    DAYS,
  ),
  q(
    'status',
    'by status',
    'filtered by workflow status',
    ['that are {v}', 'in the {v} state', 'currently {v}'],
    ['pending', 'approved', 'on hold', 'failed'],
  ),
  q('owner', 'by owner', 'owned by a given user', ['belonging to {v}', 'that {v} owns', 'of {v}'], PEOPLE),
  q(
    'region',
    'by region',
    'restricted to a geographic region',
    ['in {v}', 'around {v}', 'for the {v} area'],
    PLACES,
  ),
  q(
    'tag',
    'by tag',
    'carrying a given tag',
    ['tagged {v}', 'labelled {v}', 'marked as {v}'],
    ['urgent', 'vip', 'draft', 'internal'],
  ),
  q(
    'created_after',
    'created after',
    'created after a timestamp',
    ['made after {v}', 'newer than {v}', 'added after {v}'],
    DAYS,
  ),
  q(
    'updated_since',
    'updated since',
    'modified since a timestamp',
    ['changed since {v}', 'edited after {v}', 'touched since {v}'],
    DAYS,
  ),
  q(
    'bulk',
    'in bulk',
    'for many records in one batch call',
    ['all at once', 'in one go', 'as a batch'],
    [''],
  ),
  q(
    'priority',
    'by priority',
    'ordered or filtered by priority level',
    ['with {v} priority', 'that are {v} importance', 'ranked {v}'],
    ['high', 'low', 'critical', 'medium'],
  ),
  q(
    'currency',
    'by currency',
    'expressed in a chosen currency',
    ['in {v}', 'converted to {v}', 'priced in {v}'],
    ['euros', 'yen', 'dollars', 'pounds'],
  ),
  q(
    'language',
    'by language',
    'localised to a language',
    ['in {v}', 'translated to {v}', 'for {v} speakers'],
    ['spanish', 'german', 'hindi', 'french'],
  ),
  q(
    'team',
    'for team',
    'scoped to one team',
    ['for the {v} team', 'of team {v}', 'that the {v} group uses'],
    ['sales', 'design', 'ops', 'finance'],
  ),
  q(
    'category',
    'by category',
    'within one category',
    ['in the {v} category', 'of type {v}', 'under {v}'],
    ['general', 'premium', 'misc', 'special'],
  ),
  q(
    'limit',
    'with limit',
    'returning at most a given number of results',
    ['only the first {v}', 'top {v}', 'at most {v} of them'],
    ['5', '10', '20', '50'],
    'integer',
  ),
  q(
    'sorted',
    'sorted by date',
    'sorted newest first',
    ['newest first', 'most recent on top', 'latest first'],
    [''],
  ),
  q(
    'cursor',
    'paginated',
    'one page at a time with a cursor',
    ['page {v}', 'the next page', 'page by page from {v}'],
    ['2', '3', '7', '10'],
  ),
  q(
    'email',
    'by email',
    'looked up by email address',
    ['for {v}@example.com', 'linked to the address {v}@mail.org', 'with email {v}'],
    PEOPLE,
  ),
  q(
    'phone',
    'by phone',
    'looked up by phone number',
    ['for the number {v}', 'linked to phone {v}', 'that calls from {v}'],
    ['555-0101', '020 7946 0000', '+81 3 1234', '212-555-0199'],
  ),
  q(
    'amount',
    'above amount',
    'above a minimum amount',
    ['over {v}', 'worth more than {v}', 'bigger than {v}'],
    ['100', '2500', '40', '9000'],
    'number',
  ),
  q(
    'month',
    'for month',
    'for one calendar month',
    ['for {v}', 'during {v}', 'in the month of {v}'],
    ['january', 'may', 'october', 'december'],
  ),
  q(
    'year',
    'for year',
    'for one calendar year',
    ['for {v}', 'during {v}', 'in the year {v}'],
    ['2021', '2023', '2024', '2019'],
    'integer',
  ),
  q(
    'shared',
    'shared with me',
    'that other users shared with the caller',
    ['others shared with me', 'that colleagues sent me', 'people gave me access to'],
    [''],
  ),
  q(
    'favorites',
    'favorites',
    'marked as favourite',
    ['i starred', 'that are my favourites', 'i pinned'],
    [''],
  ),
  q(
    'deleted',
    'including deleted',
    'including soft-deleted records',
    ['even the deleted ones', 'including removed ones', 'also those in the bin'],
    [''],
  ),
  q(
    'external_ref',
    'by external reference',
    'matched by an external system reference',
    ['with reference {v}', 'ref code {v}', 'whose external key is {v}'],
    ['ext-55', 'sap-120', 'zd-901', 'jira-42'],
  ),
  q(
    'location',
    'near location',
    'near a latitude and longitude',
    ['near {v}', 'close to {v}', 'within walking distance of {v}'],
    PLACES,
  ),
  q(
    'keyword',
    'by keyword',
    'containing a keyword in any text field',
    ['mentioning {v}', 'containing the word {v}', 'that talk about {v}'],
    ['budget', 'launch', 'delay', 'refund'],
  ),
  q(
    'parent',
    'by parent',
    'belonging to a parent record',
    ['under parent {v}', 'inside {v}', 'that are children of {v}'],
    ['root', 'main', 'p-12', 'top'],
  ),
  q(
    'format',
    'with format',
    'in a chosen output format',
    ['as {v}', 'formatted as {v}', 'in {v} format'],
    ['pdf', 'json', 'xml', 'html'],
  ),
  q(
    'timezone',
    'in timezone',
    'with times shown in a given time zone',
    ['in {v} time', 'using the {v} clock', 'for {v} hours'],
    ['utc', 'pacific', 'cet', 'ist'],
  ),
  q(
    'recent',
    'recent',
    'from the last seven days',
    ['from this week', 'from the past few days', 'that are fresh'],
    [''],
  ),
  q(
    'overdue',
    'overdue',
    'past their due date',
    ['that are late', 'past due', 'that missed the deadline'],
    [''],
  ),
  q(
    'draft',
    'drafts only',
    'still in draft and not yet published',
    ['that are unfinished', 'not yet final', 'still being written'],
    [''],
  ),
  q(
    'audit',
    'with audit trail',
    'including the full change history',
    ['with all past changes', 'with the history of edits', 'and who changed what'],
    [''],
  ),
];

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function words(text: string): string[] {
  return text
    .replace(/[^a-z0-9 ]+/gi, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function camel(parts: string[]): string {
  const ws = parts.flatMap(words).map((w) => w.toLowerCase());
  return ws.map((w, i) => (i === 0 ? w : cap(w))).join('');
}

function snake(parts: string[]): string {
  return parts
    .flatMap(words)
    .map((w) => w.toLowerCase())
    .join('_');
}

export interface CatalogTool extends Tool {
  domain: string;
}

/** Tool `id` of the combination (stable, ≤ 100,800). */
function compose(rng: Rng, id: number): { tool: CatalogTool; parts: [number, number, number, number] } {
  const perEntity = ACTIONS.length * QUALIFIERS.length;
  const entityIndex = Math.floor(id / perEntity);
  const d = Math.floor(entityIndex / 8);
  const en = entityIndex % 8;
  const a = Math.floor((id % perEntity) / QUALIFIERS.length);
  const qu = id % QUALIFIERS.length;
  const domain = DOMAINS[d] as (typeof DOMAINS)[number];
  const entity = domain.entities[en] as Entity;
  const action = ACTIONS[a] as Action;
  const qual = QUALIFIERS[qu] as Qualifier;
  const noun = action.plural ? entity.many : entity.one;
  const nameParts = [domain.slug, action.verb, noun, qual.name];
  const name = rng.chance(0.5) ? camel(nameParts) : snake(nameParts);
  const opening = rng.pick(action.says);
  const object = /single|one|a$|a new$/i.test(opening) ? entity.one : entity.many;
  const templates = [
    `${opening} ${object} ${qual.says}, in the ${domain.label} service.`,
    `${cap(domain.label)} API: ${opening.toLowerCase()} ${object} ${qual.says}.`,
    `${opening} ${object} of the ${domain.label} system, ${qual.says}. Requires an API key.`,
  ];
  const properties: Record<string, unknown> = {
    [qual.param.name]: { type: qual.param.type, description: qual.param.description },
  };
  if (!action.plural) properties[`${snake([entity.one])}_id`] = { type: 'string' };
  return {
    tool: {
      name,
      description: rng.pick(templates),
      parameters: { type: 'object', properties, required: Object.keys(properties).slice(0, 1) },
      domain: domain.slug,
    },
    parts: [d, en, a, qu],
  };
}

/** Maximum catalog size (every domain × entity × action × qualifier combination). */
export const CATALOG_CAPACITY =
  DOMAINS.reduce((n, d) => n + d.entities.length, 0) * ACTIONS.length * QUALIFIERS.length;

/** One natural-language request for a catalog tool, drawn from `rng`. */
function phrase(rng: Rng, parts: [number, number, number, number]): string {
  const [d, en, a, qu] = parts;
  const domain = DOMAINS[d] as (typeof DOMAINS)[number];
  const entity = domain.entities[en] as Entity;
  const action = ACTIONS[a] as Action;
  const qual = QUALIFIERS[qu] as Qualifier;
  // Canonical entity word 40 % of the time, a synonym otherwise; the domain is named half the time.
  const base = rng.chance(0.4) ? (action.plural ? entity.many : entity.one) : rng.pick(entity.alt);
  const noun = rng.chance(0.5) ? `${domain.label} ${base}` : base;
  const ask = rng.pick(action.asks).replace('{e}', noun);
  const clause = rng.pick(qual.asks).replace('{v}', rng.pick(qual.values));
  const frames = ['{x}', 'can you {x}?', 'please {x}', 'i would like you to {x}', 'hey, {x}', '{x} thanks'];
  return rng.pick(frames).replace('{x}', `${ask} ${clause}`).replace(/\s+/g, ' ').trim();
}

export interface CatalogOptions {
  seed?: Seed;
  /** Pool size (default 100,000; at most CATALOG_CAPACITY). */
  tools?: number;
  /** Tools with training queries (default 5,000). */
  seenTools?: number;
  /** Training queries per seen tool (default 2: 10,000 with the default seen tools). */
  trainPerTool?: number;
  /** Dev queries (seen tools, wording not in training; default 1,000). */
  dev?: number;
  /** Test queries on seen tools and on unseen tools (default 1,000 each). */
  testSeen?: number;
  testUnseen?: number;
}

export interface Catalog {
  tools: CatalogTool[];
  train: QueryExample[];
  dev: QueryExample[];
  testSeen: QueryExample[];
  testUnseen: QueryExample[];
  /** Names of tools that have training queries. */
  seen: Set<string>;
  /** Texts that need no tool (for the Tool Judge's negatives), as many as there are training queries. */
  noTool: string[];
}

const NO_TOOL = [
  'thanks, that is all i needed',
  'the answer is {n}',
  'so the total comes to {n}',
  'great, that helps a lot',
  'let me think about that for a moment',
  'ok, i will take it from here',
  'that means the result is {n} in the end',
  'hello there, how are you',
  'in summary we have {n} items',
  'never mind, forget it',
];

/** Builds the catalog; the same options always give the same catalog. */
export function syntheticCatalog(options: CatalogOptions = {}): Catalog {
  return drain(syntheticCatalogSteps(options));
}

/** Tools composed (or queries phrased) between two pauses of `syntheticCatalogSteps`. */
const CATALOG_STEP = 500;

/**
 * `syntheticCatalog` as a generator that pauses every few hundred tools or queries (a 10,000-tool catalog is
 * ≈ 0.2 s of CPU), for callers on a shared event loop (core/util/pacer.ts `drainPaced`).
 */
export function* syntheticCatalogSteps(options: CatalogOptions = {}): Generator<void, Catalog> {
  const seed = options.seed ?? 'tool-catalog';
  const size = options.tools ?? 100_000;
  if (!Number.isInteger(size) || size < 1 || size > CATALOG_CAPACITY)
    throw new RangeError(`tools must be an integer in 1..${CATALOG_CAPACITY}, got ${size}`);
  const seenCount = Math.min(size, options.seenTools ?? 5_000);
  const trainPerTool = options.trainPerTool ?? 2;
  const rng = new Rng(seed);
  const ids = rng
    .fork('pick')
    .shuffle(Array.from({ length: CATALOG_CAPACITY }, (_, i) => i))
    .slice(0, size);
  yield;
  const toolRng = rng.fork('tools');
  const composed: ReturnType<typeof compose>[] = [];
  for (const id of ids) {
    composed.push(compose(toolRng, id));
    if (composed.length % CATALOG_STEP === 0) yield;
  }
  const tools = composed.map((c) => c.tool);
  const seenIdx = Array.from({ length: seenCount }, (_, i) => i);
  const unseenIdx = Array.from({ length: size - seenCount }, (_, i) => seenCount + i);
  const used = new Set<string>();
  const qRng = rng.fork('queries');
  /** A query for tool i whose wording is new (tries a few draws, then accepts a repeat). */
  const fresh = (i: number): QueryExample => {
    const parts = (composed[i] as (typeof composed)[number]).parts;
    let text = phrase(qRng, parts);
    for (let tries = 0; tries < 20 && used.has(text); tries++) text = phrase(qRng, parts);
    used.add(text);
    return { query: text, tools: [(tools[i] as Tool).name] };
  };
  const train: QueryExample[] = [];
  for (const i of seenIdx) {
    for (let r = 0; r < trainPerTool; r++) train.push(fresh(i));
    if (i % CATALOG_STEP === 0) yield;
  }
  const sample = (pool: number[], n: number, label: string) =>
    rng.fork(label).shuffle(pool).slice(0, Math.min(n, pool.length));
  const dev = sample(seenIdx, options.dev ?? 1_000, 'dev').map(fresh);
  yield;
  const testSeen = sample(seenIdx, options.testSeen ?? 1_000, 'test-seen').map(fresh);
  yield;
  const testUnseen = sample(unseenIdx, options.testUnseen ?? 1_000, 'test-unseen').map(fresh);
  yield;
  const nRng = rng.fork('no-tool');
  const noTool = train.map(() => nRng.pick(NO_TOOL).replace('{n}', String(nRng.int(1, 9999))));
  return {
    tools,
    train,
    dev,
    testSeen,
    testUnseen,
    seen: new Set(seenIdx.map((i) => (tools[i] as Tool).name)),
    noTool,
  };
}
