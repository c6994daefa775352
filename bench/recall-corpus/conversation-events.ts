/**
 * What the long-conversation corpus plants: events a speaker tells, each with the question asked
 * about it. `{n}` is the speaker's name, `{o}` the other's. Single-hop: one turn, asked in some of its
 * words; multi-hop: one turn in each of several sessions; temporal: "when did…" (the date is in the
 * line) or "in <month>"; open-domain: asked in words the turn does not use.
 */
export type EventKind = 'single' | 'multi' | 'temporal' | 'open';

export interface ConvEvent {
  kind: EventKind;
  /** The evidence turns' texts (multi-hop: one per session). */
  turns: string[];
  question: string;
  /** Temporal "in <month>": the evidence must be told in a session of that month (filled in by the generator). */
  inMonth?: boolean;
}

export const EVENTS: readonly ConvEvent[] = [
  { kind: 'single', turns: ['I finally adopted a rescue greyhound, we named him Biscuit'], question: "What is the name of {n}'s dog?" },
  {
    kind: 'single',
    turns: ['I have been learning the cello for about a year now, the lessons are hard'],
    question: 'What instrument is {n} learning?',
  },
  {
    kind: 'single',
    turns: ['My favourite book lately is The Left Hand of Darkness, I keep rereading it'],
    question: "What is {n}'s favourite book?",
  },
  {
    kind: 'single',
    turns: ['I started volunteering at the animal shelter on Saturdays'],
    question: 'Where does {n} volunteer on Saturdays?',
  },
  {
    kind: 'single',
    turns: ['We repainted the kitchen a pale sage green last weekend'],
    question: 'What colour did {n} paint the kitchen?',
  },
  { kind: 'single', turns: ['My sister Priya just moved to Lisbon for her job'], question: "Where did {n}'s sister move?" },
  {
    kind: 'single',
    turns: ['I signed up for a pottery class at the community centre'],
    question: 'What class did {n} sign up for at the community centre?',
  },
  {
    kind: 'single',
    turns: ['I ran my first half marathon in two hours and ten minutes'],
    question: 'How long did it take {n} to run the half marathon?',
  },
  {
    kind: 'single',
    turns: ['My grandmother taught me to bake sourdough bread when I was little'],
    question: 'Who taught {n} to bake sourdough?',
  },
  {
    kind: 'single',
    turns: ['I bought a secondhand road bike, a blue Peugeot from the seventies'],
    question: 'What kind of bike did {n} buy?',
  },
  {
    kind: 'single',
    turns: ['Our book club is reading poetry this month, mostly Mary Oliver'],
    question: "Which poet is {n}'s book club reading?",
  },
  { kind: 'single', turns: ['I got a tattoo of a sunflower on my wrist'], question: 'What tattoo did {n} get?' },
  {
    kind: 'multi',
    turns: [
      'We went camping by the lake with the kids, the stars were amazing',
      'Camping in the mountains this time, it rained all night',
      'Took the tent to the beach campsite, the kids loved the waves',
    ],
    question: 'Where has {n} gone camping?',
  },
  {
    kind: 'multi',
    turns: [
      'I painted a sunset over the harbour for the art fair',
      'My latest painting is a portrait of my daughter',
      'I finished a watercolour of the old oak tree in the park',
    ],
    question: 'What has {n} painted?',
  },
  {
    kind: 'multi',
    turns: [
      'The support group meeting helped me a lot this week',
      'I went to the LGBTQ support group again and shared my story',
      'At the support group someone thanked me for speaking up',
    ],
    question: 'What happened at the support group meetings {n} went to?',
  },
  {
    kind: 'multi',
    turns: [
      'I read Becoming by Michelle Obama on the train',
      'Just finished Educated by Tara Westover, what a story',
      'Now reading Circe, the writing is beautiful',
    ],
    question: 'Which books has {n} read?',
  },
  {
    kind: 'multi',
    turns: [
      'Took the kids to the science museum, they loved the dinosaurs',
      'We visited the aquarium with the kids on Sunday',
      'The kids and I went to the zoo and saw the new tiger cubs',
    ],
    question: 'What outings has {n} taken the kids on?',
  },
  {
    kind: 'multi',
    turns: [
      'I applied for the counselling master programme',
      'The counselling programme interview went really well',
      'I got accepted into the counselling programme starting in autumn',
    ],
    question: "How did {n}'s counselling programme application go?",
  },
  {
    kind: 'temporal',
    turns: ['I gave a speech at a school about growing up in a small town'],
    question: 'When did {n} give a speech at a school?',
  },
  {
    kind: 'temporal',
    turns: ['We went to a Coldplay concert last night, what an evening'],
    question: 'When did {n} go to the Coldplay concert?',
  },
  {
    kind: 'temporal',
    turns: ['I had my job interview at the hospital this morning'],
    question: 'When did {n} have the job interview at the hospital?',
  },
  {
    kind: 'temporal',
    turns: ['We celebrated my daughter turning seven with a picnic'],
    question: "When was {n}'s daughter's seventh birthday?",
  },
  { kind: 'temporal', turns: ['I passed my driving test on the second try'], question: 'When did {n} pass the driving test?' },
  { kind: 'temporal', turns: ['We ran a charity bake sale for the shelter'], question: 'When did {n} run the charity bake sale?' },
  {
    kind: 'temporal',
    turns: ['I tried rock climbing at the indoor wall for the first time'],
    question: 'What did {n} try for the first time in {month}?',
    inMonth: true,
  },
  {
    kind: 'temporal',
    turns: ['Went to a friend’s pride parade and marched with the whole group'],
    question: 'What did {n} do in {month}?',
    inMonth: true,
  },
  { kind: 'open', turns: ['Our wedding anniversary is next week, ten years together with Tom'], question: 'Is {n} married?' },
  { kind: 'open', turns: ['I finished my degree in social work last spring'], question: "What is {n}'s education?" },
  { kind: 'open', turns: ['I grew up in a tiny fishing village in Sweden'], question: 'What country is {n} from?' },
  { kind: 'open', turns: ['My therapist says I am doing much better since the transition'], question: 'Is {n} transgender?' },
  { kind: 'open', turns: ['I keep three cats and a parrot at home'], question: 'Does {n} have pets?' },
  { kind: 'open', turns: ['Sundays are for church and then lunch with my parents'], question: 'Is {n} religious?' },
  { kind: 'open', turns: ['I want to work with kids who have been through foster care'], question: 'What career would {n} pursue?' },
  { kind: 'open', turns: ['Hiking up the ridge at sunrise is my happy place'], question: 'What does {n} enjoy outdoors?' },
];

/** Ordinary turns: what most of a conversation is. `{o}` is the other speaker. */
export const FILLER: readonly string[] = [
  'Hey {o}! How have you been?',
  'Good to hear from you, {o}. Things have been busy here.',
  'Work has been hectic this week, so many meetings.',
  'The weather has been lovely, we spent the afternoon outside.',
  'That sounds wonderful, I am so happy for you!',
  'How are the kids doing at school?',
  'The kids are fine, a bit tired after the long weekend.',
  'I made pasta for dinner and everyone loved it.',
  'Have you watched anything good lately?',
  'We binged a detective series, the ending was a surprise.',
  'I have been trying to get more sleep, it helps a lot.',
  'Thanks for asking, it means a lot to me.',
  'Let me know how it goes!',
  'I went for a long walk in the park this morning.',
  'My mom called, she is doing better after the surgery.',
  'We are thinking about a trip somewhere warm next year.',
  'That is so inspiring, you should be proud of yourself.',
  'I know what you mean, some weeks are just like that.',
  'The garden is finally blooming, the roses look great.',
  'I am reading a lot more since I stopped scrolling at night.',
  'Any plans for the weekend?',
  'Nothing much, maybe a movie and some rest.',
  'I tried a new recipe with lentils and spinach.',
  'My friend from work had a baby last week.',
  'We cleaned out the garage, it took the whole day.',
  'Talk soon, take care of yourself!',
  'I have been journaling every evening, it calms me down.',
  'The traffic this morning was terrible, I was late.',
  'We had a family dinner at my parents place.',
  'It was a tough week but I am feeling more positive now.',
  'I love that idea, we should do that together sometime.',
  'My neighbour keeps asking about the fence, it is a long story.',
  'I started a new show about baking, it is very relaxing.',
  'School is almost over for the year, the kids are excited.',
  'The kids want to go to the beach every weekend now.',
  'I had coffee with an old friend from college.',
  'Music always helps me when I feel stressed.',
  'We picked strawberries at the farm, the kids ate half of them.',
  'I am trying to be more patient with myself.',
  'It is so nice to have someone to talk to about all this.',
  // Near misses: the words of the questions, about something else.
  'The kids have a school play next week, I am sewing costumes.',
  'I need a new book to read, any favourite you would suggest?',
  'We should go camping sometime, I have never slept in a tent.',
  'I would love to learn an instrument one day.',
  'My brother got a dog and now there is dog hair everywhere.',
  'Concert tickets are so expensive these days.',
  'My daughter wants to paint her room purple.',
  'Job hunting is exhausting, so many applications.',
  'I saw a class on painting at the library, it looked fun.',
  'The support from friends this year has been incredible.',
  'My cousin is getting married in the autumn.',
  'Running in the morning is hard but I feel great after.',
  'The museum downtown has a new exhibit on whales.',
  'We baked cookies for the neighbours on Sunday.',
  'My first time at the gym in months, everything hurts.',
];

export const NAMES: readonly (readonly [string, string])[] = [
  ['Caroline', 'Melanie'],
  ['Joanna', 'Nate'],
  ['Gina', 'Jon'],
  ['Audrey', 'Andrew'],
  ['Maria', 'John'],
];
