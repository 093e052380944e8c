/**
 * The worked examples of the ToolEvo agent prompt, kept as data: each step is a P_c call with the thought before
 * it and the observation after it. They are rendered in the API of the prompt's documentation surface
 * (`renderFewShot`), so the examples never contradict the tool list: under P_c documentation (the ToolQA-D
 * setting) they show P_c calls; under another surface's documentation the same calls translated onto it.
 *
 * Pools (spec §5.1): ToolEvo draws, for every generation call, one of its two UpdateTool examples and two
 * few-shots of the task's dataset; `TOOLEVO_FEW_SHOTS` holds at least two examples for each dataset tooldrift
 * evaluates (flights, coffee, airbnb, yelp, agenda, scirex, dblp and gsm8k), in tooldrift's own wording. The
 * original keeps one pool per dataset and level (`<ds>-easy.py`, `<ds>-hard.py`, spec §1.3); tooldrift keeps one
 * pool per dataset whose examples mix the easy and the hard kinds of tool use. Callers without a per-call seed
 * show the three fixed examples of `TOOLEVO_FIXED_FEW_SHOTS` instead.
 *
 * Observations have the exact formats of the kernel tools. The examples marked `recorded` were recorded on the
 * small generated world `FEW_SHOT_WORLD` and are replayed against it by test/core/prompts/few-shot-pools.test.ts:
 * every observation is what the kernel returns there, step by step, with the Finish answer as gold. The three
 * fixed examples are older: recorded on a small world, then edited by hand into short examples, so only their
 * formats are checked (the prompts test). The entities are illustrative; no question is a task-template question
 * (checked with the simulator's template matcher), so that the examples teach the format and the tool use
 * without giving answers.
 *
 * Changing anything here changes every agent prompt: bump FEW_SHOTS_VERSION (and PROMPT_VERSION) when you do.
 */
import { formatObservation } from '../surfaces/adapter.ts';
import type { Surface } from '../surfaces/model.ts';
import { translateCall } from '../surfaces/translate.ts';
import type { KernelCall } from '../world/kernel/kernel.ts';
import { reactStepText, writeActionInput } from './react-format.ts';

export const FEW_SHOTS_VERSION = '3';

/** The generated world the `recorded` examples were recorded on (and are replayed against in the tests). */
export const FEW_SHOT_WORLD = { seed: 'few-shot-check', scale: 0.02 } as const;

export interface FewShotStep {
  thought: string;
  call: KernelCall;
  observation: string;
  /** Whether the tool ran without error (for the response wrapper of surfaces that wrap observations). */
  ok: boolean;
}

export interface FewShotExample {
  id: string;
  /** The dataset whose pool the example belongs to (ToolEvo draws few-shots per dataset). */
  dataset: string;
  question: string;
  steps: readonly FewShotStep[];
  /**
   * Every observation is exactly what the kernel returns on FEW_SHOT_WORLD for these calls in this order (the
   * Finish answer taken as gold); absent for the hand-edited fixed examples.
   */
  recorded?: true;
}

const step = (
  thought: string,
  tool: KernelCall['tool'],
  args: Record<string, unknown>,
  observation: string,
): FewShotStep => ({ thought, call: { tool, args }, observation, ok: true });

export const TOOLEVO_FEW_SHOTS: readonly FewShotExample[] = [
  {
    id: 'coffee-week-mean',
    dataset: 'coffee',
    question:
      'What was the average closing price of coffee over the trading days from 2015-03-02 to 2015-03-06, rounded to two decimals?',
    steps: [
      step(
        'Coffee prices are kept in the coffee database, so I load it first.',
        'LoadDB',
        { DBName: 'coffee' },
        'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.',
      ),
      step(
        'I keep only the trading days of that week.',
        'FilterDB',
        { condition: 'Date>=2015-03-02, Date<=2015-03-06' },
        'We have successfully filtered the data (5 rows).',
      ),
      step(
        'Now I read the closing prices of these days.',
        'GetValue',
        { column_name: 'Close' },
        '{"Close": ["216.85", "214.9", "222.4", "215.95", "215.95"]}',
      ),
      step(
        'I let Python compute the mean, so that the arithmetic is exact.',
        'PythonInterpreter',
        {
          Python:
            'closes = [216.85, 214.9, 222.4, 215.95, 215.95]\nprint(round(sum(closes) / len(closes), 2))',
        },
        '217.21',
      ),
      step(
        'The average closing price over those five days was 217.21.',
        'Finish',
        { answer: '217.21' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'agenda-place',
    dataset: 'agenda',
    question: 'Where was Chloe going to watch a film on the evening of 2022/01/04?',
    steps: [
      step(
        "People's plans are described in the agenda passages; I search them for Chloe's evening on that date.",
        'RetrieveAgenda',
        { keyword: "Chloe's movie night on 2022/01/04" },
        'Coming up on January 4, 2022, Chloe has a Movie Night planned. The movie begins at 9:30 PM at Alamo Drafthouse and is expected to finish by 12:00 AM. Parking near Alamo Drafthouse can be tricky, so she\'ll take the subway.\nOn Tuesday, January 4th, 2022, Lily has a jazz night at Blue Note Jazz Club from 9:30 PM to 11:30 PM. She will grab a quick bite beforehand.\nChloe added "Night Shift" to her calendar for Apr 13, 2022. The shift takes place at St. Mary\'s Hospital from 9:00 PM until 6:00 AM.',
      ),
      step(
        "The first passage is about Chloe's movie night on 2022/01/04, and it takes place at Alamo Drafthouse.",
        'Finish',
        { answer: 'Alamo Drafthouse' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'dblp-strongest-coauthor',
    dataset: 'dblp',
    question:
      'With which co-author has Anke Hansen written the most papers, according to the DBLP co-author network?',
    steps: [
      step(
        'Co-authorship is recorded in the DBLP graphs, so I load the graph data.',
        'LoadGraph',
        { GraphName: 'dblp' },
        'DBLP data is loaded, including two graphs: AuthorNet and PaperNet.',
      ),
      step(
        "In AuthorNet an author's neighbours are the co-authors, and each edge weight counts joint papers. I list Anke Hansen's neighbours.",
        'NeighbourCheck',
        { GraphName: 'AuthorNet', Node: 'Anke Hansen' },
        "Degree: 4; 4 neighbors: [('Thomas Hansen', 'weight: 17'), ('Katharina Lange', 'weight: 15'), ('Wolfgang Lindqvist', 'weight: 19'), ('Kai Ye', 'weight: 1')]; Total 26 papers; Paper list: Hierarchical caching placement with blockchain for industrial IoT, Routing Optimization in UAV-Assisted Networks: An Empirical Study, Spectrum Sensing under Low SNR: A Questionnaire",
      ),
      step(
        'The largest weight, 19, belongs to Wolfgang Lindqvist.',
        'Finish',
        { answer: 'Wolfgang Lindqvist' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'flights-early-arrivals',
    dataset: 'flights',
    recorded: true,
    question: 'How many flights marketed by WN on 2022-01-05 reached their destination ahead of schedule?',
    steps: [
      step(
        'Flight records are in the flights database, so I load it.',
        'LoadDB',
        { DBName: 'flights' },
        'We have successfully loaded the flights database, including the following columns: FlightDate, Airline, Origin, Dest, Cancelled, Diverted, CRSDepTime, DepTime, DepDelayMinutes, DepDelay, ArrTime, ArrDelayMinutes, AirTime, Distance, DayOfWeek, IATA_Code_Marketing_Airline, Flight_Number_Marketing_Airline, Flight_Number_Operating_Airline, TaxiIn, CRSArrTime, ArrDelay, DivAirportLandings.',
      ),
      step(
        'A flight that arrived early has a negative ArrDelay. I keep the WN flights of that date whose ArrDelay is below zero.',
        'FilterDB',
        { condition: 'IATA_Code_Marketing_Airline=WN, FlightDate=2022-01-05, ArrDelay<0' },
        'We have successfully filtered the data (3 rows).',
      ),
      step('Three rows are left, one per early flight.', 'Finish', { answer: '3' }, 'Answer is CORRECT'),
    ],
  },
  {
    id: 'flights-total-airtime',
    dataset: 'flights',
    recorded: true,
    question:
      'Adding up the flights marketed by WN on 2022-01-10 that have a recorded air time, how many minutes were they in the air altogether?',
    steps: [
      step(
        'I start by loading the flights database.',
        'LoadDB',
        { DBName: 'flights' },
        'We have successfully loaded the flights database, including the following columns: FlightDate, Airline, Origin, Dest, Cancelled, Diverted, CRSDepTime, DepTime, DepDelayMinutes, DepDelay, ArrTime, ArrDelayMinutes, AirTime, Distance, DayOfWeek, IATA_Code_Marketing_Airline, Flight_Number_Marketing_Airline, Flight_Number_Operating_Airline, TaxiIn, CRSArrTime, ArrDelay, DivAirportLandings.',
      ),
      step(
        'Only the WN flights of 2022-01-10 matter.',
        'FilterDB',
        { condition: 'IATA_Code_Marketing_Airline=WN, FlightDate=2022-01-10' },
        'We have successfully filtered the data (6 rows).',
      ),
      step(
        'Now I read their air times.',
        'GetValue',
        { column_name: 'AirTime' },
        '{"AirTime": ["126.0", "148.0", "200.0", "nan", "50.0", "49.0"]}',
      ),
      step(
        'One flight has no air time (nan), so I leave it out and add up the other five in Python.',
        'PythonInterpreter',
        { Python: 'air_times = [126.0, 148.0, 200.0, 50.0, 49.0]\nprint(sum(air_times))' },
        '573.0',
      ),
      step(
        'Together those flights were in the air for 573 minutes.',
        'Finish',
        { answer: '573.0' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'coffee-median-volume',
    dataset: 'coffee',
    recorded: true,
    question: 'What was the median daily trading volume of coffee between 2012-06-04 and 2012-06-08?',
    steps: [
      step(
        'The coffee database has one row per trading day, with its volume; I load it.',
        'LoadDB',
        { DBName: 'coffee' },
        'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.',
      ),
      step(
        'I narrow it down to the days of that week.',
        'FilterDB',
        { condition: 'Date>=2012-06-04, Date<=2012-06-08' },
        'We have successfully filtered the data (5 rows).',
      ),
      step(
        'Next I need the Volume of each of these days.',
        'GetValue',
        { column_name: 'Volume' },
        '{"Volume": ["12785", "30821", "9774", "21932", "9659"]}',
      ),
      step(
        'The median of five values is the middle one once they are sorted; Python computes it for me.',
        'PythonInterpreter',
        {
          Python:
            'import statistics\nvolumes = [12785, 30821, 9774, 21932, 9659]\nprint(statistics.median(volumes))',
        },
        '12785',
      ),
      step(
        'The median daily volume that week was 12785.',
        'Finish',
        { answer: '12785' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'airbnb-instant-private-rooms',
    dataset: 'airbnb',
    recorded: true,
    question: 'How many private rooms in Williamsburg can be booked instantly?',
    steps: [
      step(
        'Listings are in the airbnb database, so I load it.',
        'LoadDB',
        { DBName: 'airbnb' },
        'We have successfully loaded the airbnb database, including the following columns: id, NAME, host id, host_identity_verified, host name, neighbourhood group, neighbourhood, lat, long, country, country code, instant_bookable, cancellation_policy, room type, Construction year, price, service fee, minimum nights, number of reviews, last review, reviews per month, review rate number, calculated host listings count, availability 365, house_rules, license.',
      ),
      step(
        'Three conditions together select the listings I want: the neighbourhood, the room type and instant booking.',
        'FilterDB',
        { condition: 'neighbourhood=Williamsburg, room type=Private room, instant_bookable=True' },
        'We have successfully filtered the data (2 rows).',
      ),
      step('Two listings satisfy all three conditions.', 'Finish', { answer: '2' }, 'Answer is CORRECT'),
    ],
  },
  {
    id: 'airbnb-most-reviewed-host',
    dataset: 'airbnb',
    recorded: true,
    question: 'Among the entire homes offered in Chelsea, whose listing has received the most reviews?',
    steps: [
      step(
        'I load the airbnb listings.',
        'LoadDB',
        { DBName: 'airbnb' },
        'We have successfully loaded the airbnb database, including the following columns: id, NAME, host id, host_identity_verified, host name, neighbourhood group, neighbourhood, lat, long, country, country code, instant_bookable, cancellation_policy, room type, Construction year, price, service fee, minimum nights, number of reviews, last review, reviews per month, review rate number, calculated host listings count, availability 365, house_rules, license.',
      ),
      step(
        'I keep the entire homes in Chelsea.',
        'FilterDB',
        { condition: 'neighbourhood=Chelsea, room type=Entire home/apt' },
        'We have successfully filtered the data (6 rows).',
      ),
      step(
        'For each of them I need the host and the number of reviews; GetValue reads both columns at once.',
        'GetValue',
        { column_name: 'host name, number of reviews' },
        '{"host name": ["Monica", "Carmen", "Carmen", "Cristina", "Carmen", "Carmen"], "number of reviews": ["6.0", "0.0", "28.0", "0.0", "17.0", "8.0"]}',
      ),
      step(
        'I let Python find the host of the listing with the largest number of reviews.',
        'PythonInterpreter',
        {
          Python:
            "hosts = ['Monica', 'Carmen', 'Carmen', 'Cristina', 'Carmen', 'Carmen']\nreviews = [6.0, 0.0, 28.0, 0.0, 17.0, 8.0]\nprint(hosts[reviews.index(max(reviews))])",
        },
        'Carmen',
      ),
      step("The listing with 28 reviews is Carmen's.", 'Finish', { answer: 'Carmen' }, 'Answer is CORRECT'),
    ],
  },
  {
    id: 'yelp-top-rated-tucson',
    dataset: 'yelp',
    recorded: true,
    question: 'Which businesses in Tucson, AZ are rated 4.5 stars or more?',
    steps: [
      step(
        'Business ratings are in the yelp database; I load it.',
        'LoadDB',
        { DBName: 'yelp' },
        'We have successfully loaded the yelp database, including the following columns: business_id, name, address, city, state, postal_code, latitude, longitude, stars, review_count, is_open, attributes, categories, hours.',
      ),
      step(
        'I keep the businesses of Tucson, AZ with at least 4.5 stars.',
        'FilterDB',
        { condition: 'city=Tucson, state=AZ, stars>=4.5' },
        'We have successfully filtered the data (5 rows).',
      ),
      step(
        'Now I read their names.',
        'GetValue',
        { column_name: 'name' },
        '{"name": ["Nguyen\'s Bodywork", "Desert Express", "Tucson Shop", "Local Table", "Samir\'s Tavern"]}',
      ),
      step(
        'These five businesses are the answer.',
        'Finish',
        { answer: "Nguyen's Bodywork, Desert Express, Tucson Shop, Local Table, Samir's Tavern" },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'yelp-total-reviews',
    dataset: 'yelp',
    recorded: true,
    question: 'How many reviews have the businesses of New Orleans, LA received in total?',
    steps: [
      step(
        'I load the yelp database, which holds the review count of every business.',
        'LoadDB',
        { DBName: 'yelp' },
        'We have successfully loaded the yelp database, including the following columns: business_id, name, address, city, state, postal_code, latitude, longitude, stars, review_count, is_open, attributes, categories, hours.',
      ),
      step(
        'I keep the businesses of New Orleans, LA.',
        'FilterDB',
        { condition: 'city=New Orleans, state=LA' },
        'We have successfully filtered the data (8 rows).',
      ),
      step(
        'I read their review counts.',
        'GetValue',
        { column_name: 'review_count' },
        '{"review_count": ["24", "14", "64", "32", "21", "14", "145", "111"]}',
      ),
      step(
        'Python adds the eight counts.',
        'PythonInterpreter',
        { Python: 'counts = [24, 14, 64, 32, 21, 14, 145, 111]\nprint(sum(counts))' },
        '425',
      ),
      step(
        'The businesses of New Orleans have 425 reviews between them.',
        'Finish',
        { answer: '425' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'agenda-earliest-start',
    dataset: 'agenda',
    recorded: true,
    question:
      "Of all of Savannah's events in the agenda table, which one starts earliest in the day, and at what time?",
    steps: [
      step(
        'The agenda is also available as a table, which is easier to scan for one person; I load it.',
        'LoadDB',
        { DBName: 'agenda' },
        'We have successfully loaded the agenda database, including the following columns: event, start_time, end_time, location, person, date, id.',
      ),
      step(
        "I keep Savannah's rows.",
        'FilterDB',
        { condition: 'person=Savannah' },
        'We have successfully filtered the data (6 rows).',
      ),
      step(
        'I read the events and their start times together.',
        'GetValue',
        { column_name: 'event, start_time' },
        '{"event": ["Wine tasting", "Project kickoff", "Book Signing", "Breakfast meeting", "Stand-up comedy show", "Client lunch"], "start_time": ["20:00:00", "09:30:00", "16:00:00", "09:00:00", "22:00:00", "11:30:00"]}',
      ),
      step(
        'The times are written HH:MM:SS, so the smallest string is the earliest time; Python picks it and its event.',
        'PythonInterpreter',
        {
          Python:
            "events = ['Wine tasting', 'Project kickoff', 'Book Signing', 'Breakfast meeting', 'Stand-up comedy show', 'Client lunch']\nstarts = ['20:00:00', '09:30:00', '16:00:00', '09:00:00', '22:00:00', '11:30:00']\nfirst = starts.index(min(starts))\nprint(events[first], starts[first])",
        },
        'Breakfast meeting 09:00:00',
      ),
      step(
        'Her earliest event is the breakfast meeting, which starts at 09:00:00.',
        'Finish',
        { answer: 'Breakfast meeting, 09:00:00' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'scirex-accuracy-gap',
    dataset: 'scirex',
    recorded: true,
    question: 'By how many points is the accuracy of FVLSAttn higher than that of FVLSAttn-Base on AG News?',
    steps: [
      step(
        'Results of machine learning papers are found in the SciREX passages; I search for the accuracies on AG News.',
        'RetrieveScirex',
        { keyword: 'FVLSAttn accuracy on AG News' },
        'subsection : Comparison with the State of the Art on AG News Table [ reference ] summarises our Text Classification results on AG News . We report a Error score of 18.86 on AG News for FVLSAttn . In terms of Error , FVLSAttn - Base scores 19.45 on AG News . We report a Accuracy score of 81.56 on AG News for FVLSAttn . We report a Accuracy score of 80.81 on AG News for FVLSAttn - Base . The improvement is consistent across random seeds .\nsection : Title FVLSAttn : Towards Hierarchical Text Classification section : Abstract We present FVLSAttn , a model that assigns topic labels to documents . FVLSAttn combines weight - dropped recurrent connections with a shared multi - task encoder , which allows it to be trained end - to - end . We argue that much of the remaining error stems from a lack of global context . Experiments on AG News and DBpedia show that FVLSAttn achieves a Error of 18.86 on AG News .\nparagraph : DBpedia Table [ reference ] summarises our Text Classification results on DBpedia . As shown in Table [ reference ] , FVLSAttn reaches Error 6.21 on the DBpedia dataset . As shown in Table [ reference ] , FVLSAttn reaches Accuracy 93.26 on the DBpedia dataset .',
      ),
      step(
        'The first passage gives 81.56 for FVLSAttn and 80.81 for FVLSAttn-Base. I subtract them in Python to avoid rounding slips.',
        'PythonInterpreter',
        { Python: 'print(round(81.56 - 80.81, 2))' },
        '0.75',
      ),
      step('FVLSAttn is 0.75 points more accurate.', 'Finish', { answer: '0.75' }, 'Answer is CORRECT'),
    ],
  },
  {
    id: 'scirex-lower-perplexity',
    dataset: 'scirex',
    recorded: true,
    question:
      'Does CharLSTM reach a lower test perplexity on Penn Treebank (Word Level) or on One Billion Word?',
    steps: [
      step(
        "I look for CharLSTM's test perplexities in the SciREX passages.",
        'RetrieveScirex',
        { keyword: 'CharLSTM test perplexity on Penn Treebank and One Billion Word' },
        'paragraph : One Billion Word Table [ reference ] summarises our Language Modelling results on One Billion Word . In terms of Test perplexity , CharLSTM scores 59.9 on One Billion Word . We report a Validation perplexity score of 60.11 on One Billion Word for CharLSTM . The improvement is consistent across random seeds .\nsection : Title CharLSTM : Simple Learning for Language Modelling section : Abstract We present CharLSTM , a model that assigns probabilities to sequences of words . CharLSTM combines a gated memory cell with a biaffine classifier , which allows it to be trained end - to - end . Most existing approaches rely on hand - crafted pipelines that are difficult to tune . Experiments on Penn Treebank ( Word Level ) and One Billion Word show that CharLSTM achieves a Test perplexity of 69.7 on Penn Treebank ( Word Level ) .\nsubsection : Results on Penn Treebank ( Word Level ) Table [ reference ] summarises our Language Modelling results on Penn Treebank ( Word Level ) . In terms of Test perplexity , CharLSTM scores 69.7 on Penn Treebank ( Word Level ) . CharLSTM obtains 72.4 Validation perplexity on Penn Treebank ( Word Level ) , compared with the previous best result [ reference ] .',
      ),
      step(
        'The passages give a test perplexity of 59.9 on One Billion Word and 69.7 on Penn Treebank (Word Level). Lower is better for perplexity, and 59.9 is the lower value.',
        'Finish',
        { answer: 'One Billion Word' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'dblp-publication-year',
    dataset: 'dblp',
    recorded: true,
    question:
      'In which year was the paper "Graph Attention Networks for Traffic Classification in Smart Cities" published?',
    steps: [
      step(
        'Papers are nodes of the PaperNet graph of the DBLP data; I load the graphs first.',
        'LoadGraph',
        { GraphName: 'dblp' },
        'DBLP data is loaded, including two graphs: AuthorNet and PaperNet.',
      ),
      step(
        "A paper node's attributes include its year, so I check the node of this title.",
        'NodeCheck',
        {
          GraphName: 'PaperNet',
          Node: 'Graph Attention Networks for Traffic Classification in Smart Cities',
        },
        "{'title': 'Graph Attention Networks for Traffic Classification in Smart Cities', 'authors': [{'id': '63d15a53d45452c8cd07e213', 'name': 'Mengyuan Lu', 'org': 'School of Information Science and Technology, Nanjing University, Nanjing, China'}, {'id': '5690f45e5a9d58691d07e212', 'name': 'Xiang Wang', 'org': 'Nanjing Univ, Sch Informat Sci & Technol, Nanjing, Peoples R China'}, {'id': '5687eabd003935caff07e211', 'name': 'Lili Huang', 'org': ''}], 'year': 2021, 'venue': {'raw': 'IEEE ACCESS'}, 'n_citation': 1, 'keywords': ['Blockchain', ' Edge computing', ' Vehicular networks', ' 5G', ' Task offloading', ' Energy efficiency', ' Wireless networks'], 'doc_type': 'Journal', 'page_start': '4801', 'page_end': '4823'}; Degree: 1",
      ),
      step("The node's year attribute is 2021.", 'Finish', { answer: '2021' }, 'Answer is CORRECT'),
    ],
  },
  {
    id: 'gsm8k-library-shelves',
    dataset: 'gsm8k',
    recorded: true,
    question:
      'A library has 4 shelves holding 36 books each and 3 shelves holding 52 books each. After 45 books are lent out, how many books are left on the shelves?',
    steps: [
      step(
        'The shelves hold 4 × 36 + 3 × 52 books, and 45 of them leave; I compute it with Python.',
        'PythonInterpreter',
        { Python: 'on_shelves = 4 * 36 + 3 * 52\nprint(on_shelves - 45)' },
        '255',
      ),
      step('255 books are left on the shelves.', 'Finish', { answer: '255' }, 'Answer is CORRECT'),
    ],
  },
  {
    id: 'gsm8k-leaking-tank',
    dataset: 'gsm8k',
    recorded: true,
    question:
      'An empty tank holds 1,200 liters. Water flows in at 35 liters per minute while a leak lets out 5 liters per minute. How many minutes does it take to fill the tank?',
    steps: [
      step(
        'The tank gains 35 − 5 liters every minute, so filling it takes 1200 divided by that net rate. Python does the division.',
        'PythonInterpreter',
        { Python: 'net_rate = 35 - 5\nprint(1200 / net_rate)' },
        '40.0',
      ),
      step('It takes 40 minutes to fill the tank.', 'Finish', { answer: '40' }, 'Answer is CORRECT'),
    ],
  },
];

/** The ids of the three fixed examples shown by callers without a per-call seed (tooldrift's variant). */
export const FIXED_FEW_SHOT_IDS = ['coffee-week-mean', 'agenda-place', 'dblp-strongest-coauthor'] as const;

/** The three fixed examples, in that order. */
export const TOOLEVO_FIXED_FEW_SHOTS: readonly FewShotExample[] = FIXED_FEW_SHOT_IDS.map((id) => {
  const example = TOOLEVO_FEW_SHOTS.find((e) => e.id === id);
  if (!example) throw new Error(`fixed few-shot ${id} is missing`);
  return example;
});

/** A P_c call written in the API of `docs` (the P_c form when the surface cannot express it). */
function callOn(docs: Surface, call: KernelCall): { name: string; args: Record<string, unknown> } {
  const t = translateCall(docs, call);
  return t.ok ? { name: t.tool, args: t.args } : { name: call.tool, args: call.args };
}

/** One example as prompt text: the question, then its steps with observations. */
export function renderFewShot(example: FewShotExample, docs: Surface): string {
  const parts = [`Question: ${example.question}`];
  for (const s of example.steps) {
    const { name, args } = callOn(docs, s.call);
    const observation = formatObservation(docs.response, s.observation, s.ok);
    parts.push(`${reactStepText(s.thought, name, writeActionInput(args))}\n\nObservation: ${observation}`);
  }
  return parts.join('\n\n');
}

/**
 * Whether every call of `example` is written with a tool `docs` documents (`translateCall` succeeds, so
 * `renderFewShot` needs no P_c fallback). Documentation chosen by retrieval (`docs.retrieved`, the toolPool aid)
 * shows only such examples: one that needs a tool retrieval did not find is left out rather than naming a tool
 * the prompt does not document (issue 25 item 21).
 */
export function usesDocumentedTools(example: FewShotExample, docs: Surface): boolean {
  return example.steps.every((s) => translateCall(docs, s.call).ok);
}

/**
 * The tools an example text (an UpdateTool example) calls that `docs` does not document — except a successor
 * its own deprecation message names (`Use X[...]` in an earlier observation), which is what the example teaches.
 */
export function undocumentedActions(text: string, docs: Surface): string[] {
  const documented = new Set(docs.tools.map((t) => t.name));
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:Action: (.+)|Observation: (.*))$/gm)) {
    if (m[2] !== undefined) for (const u of m[2].matchAll(/\bUse (\w+)\[/g)) documented.add(u[1] as string);
    else if (m[1] !== undefined && !documented.has(m[1].trim())) out.push(m[1].trim());
  }
  return out;
}

/**
 * ToolEvo's UpdateTool examples (spec §5.1): a deprecation message, the call of the tool it names, and the
 * UpdateTool call that records it. tooldrift's wording; the tool names are invented and belong to no surface, so
 * that the examples teach the reaction to a deprecation without giving away a surface's replacement names (the
 * original's examples used P_s_in's real names).
 */
export const TOOLEVO_UPDATE_EXAMPLES: readonly string[] = [
  [
    'Thought: The database is loaded; now I keep only the rows of 2022-03-25.',
    'Action: FilterDB',
    'Action Input: {"condition": "Date=2022-03-25"}',
    'Observation: Error: FilterDB[condition] is deprecated and will be removed in future releases. Use Select_Rows_Where[rule1], param example: {"rule1": "Date>=2021-05-01", "rule2": "Date<=2021-05-02"} instead.',
    'Thought: FilterDB is deprecated and the message names Select_Rows_Where, which takes numbered rules. I filter with it.',
    'Action: Select_Rows_Where',
    'Action Input: {"rule1": "Date=2022-03-25"}',
    'Observation: We have successfully filtered the data (12 rows).',
    'Thought: The new filter tool worked the first time, so I record it with UpdateTool for the steps to come.',
    'Action: UpdateTool',
    'Action Input: {"newtool_desc": "Select_Rows_Where[rule1, rule2, ...], the new version of FilterDB: keeps the rows that satisfy every numbered rule, e.g. {\\"rule1\\": \\"Date>=2021-05-01\\", \\"rule2\\": \\"Date<=2021-05-02\\"}."}',
    'Observation: The description for the new tool has been updated successfully.',
  ].join('\n\n'),
  [
    'Thought: I need the Price column of the filtered rows.',
    'Action: GetValue',
    'Action Input: {"column_name": "Price"}',
    'Observation: Error: GetValue[column_name] is deprecated and will be removed in future releases. Use Read_Column[field, AsList], param example: {"field": "Price", "AsList": "True"} instead.',
    'Thought: GetValue is deprecated; Read_Column replaces it. I read the Price column with it.',
    'Action: Read_Column',
    'Action Input: {"field": "Price", "AsList": "True"}',
    'Observation: {"Price": ["120.0", "95.5", "143.0"]}',
    'Thought: Read_Column works. Before going on, I add its description with UpdateTool.',
    'Action: UpdateTool',
    'Action Input: {"newtool_desc": "Read_Column[field, AsList], the new version of GetValue: returns the values of one column of the filtered rows, e.g. {\\"field\\": \\"Price\\", \\"AsList\\": \\"True\\"}."}',
    'Observation: The description for the new tool has been updated successfully.',
  ].join('\n\n'),
];

/** Few-shots per generation call (ToolEvo's `num_examples`). */
export const FEW_SHOTS_PER_CALL = 2;

/**
 * The examples of one generation call, drawn with `rng` as ToolEvo does for every call (spec §5.1): one of the
 * UpdateTool examples, then `FEW_SHOTS_PER_CALL` examples of the task's dataset. Every built-in dataset has at least
 * that many; a dataset with fewer examples of its own (an unknown or absent one) is topped up from the other
 * datasets' examples (drawn with the same stream).
 */
export function drawFewShots(
  dataset: string | undefined,
  rng: { pick<T>(xs: readonly T[]): T; sample<T>(xs: readonly T[], n: number): T[] },
  pool: readonly FewShotExample[] = TOOLEVO_FEW_SHOTS,
): { update: string; examples: FewShotExample[] } {
  const update = rng.pick(TOOLEVO_UPDATE_EXAMPLES);
  const own = pool.filter((e) => e.dataset === dataset);
  const examples = rng.sample(own, Math.min(FEW_SHOTS_PER_CALL, own.length));
  if (examples.length < FEW_SHOTS_PER_CALL) {
    const others = pool.filter((e) => e.dataset !== dataset);
    examples.push(...rng.sample(others, FEW_SHOTS_PER_CALL - examples.length));
  }
  return { update, examples };
}
