/**
 * The 50 states and the District of Columbia, by USPS code (docs/responsible-play.md). A module
 * without zod: the registration form's select and the server's location rules both read it.
 */
export const US_STATES = [
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'DC', name: 'District of Columbia' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
] as const;

export type StateCode = (typeof US_STATES)[number]['code'];

export const STATE_CODES = US_STATES.map((state) => state.code) as [StateCode, ...StateCode[]];

const NAMES = new Map<string, string>(US_STATES.map((state) => [state.code, state.name]));
const CODES = new Map<string, StateCode>(US_STATES.map((state) => [state.name, state.code]));

export function isStateCode(value: string): value is StateCode {
  return NAMES.has(value);
}

/** "Tennessee" for "TN". */
export function stateName(code: StateCode): string {
  return NAMES.get(code) ?? code;
}

/** "TN" for "Tennessee", as the city database names states; undefined for any other name. */
export function stateCodeOfName(name: string): StateCode | undefined {
  return CODES.get(name);
}

/**
 * Where cash competitions are not offered unless EXCLUDED_STATES says otherwise
 * (docs/responsible-play.md).
 */
export const DEFAULT_EXCLUDED_STATES: readonly StateCode[] = [
  'AR',
  'AZ',
  'DE',
  'LA',
  'MD',
  'MT',
  'SC',
  'SD',
  'TN',
];

/** The refusals of docs/responsible-play.md, word for word. */
export const LOCATION_MESSAGES = {
  notAvailableIn: (name: string) => `Cash competitions are not available in ${name}.`,
  outsideUnitedStates: 'Cash competitions are only available in the United States.',
  stateRequired: 'Please select your state',
  stateInvalid: 'Please select a US state',
  stateUpdated: 'State updated',
} as const;
