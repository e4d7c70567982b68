import { faker } from '@faker-js/faker';
import type { LogCategory, LogOption, LogParam, StructureField } from '../../../contract/loggen';

// The generators a log structure can use (GET config/logs and config/logs/categories). Each one is a call into the
// fake-data library; the catalogue is also the allow-list: an expression can name only these, so a saved structure
// never reaches any other function of the library.

export interface GenerateContext {
  /** The time of the line being generated. */
  at: Date;
}

export interface CatalogueEntry extends Omit<LogOption, 'example'> {
  generate(params: Record<string, unknown>, ctx: GenerateContext): string | number | boolean;
}

export const LOG_CATEGORIES: readonly LogCategory[] = [
  { category: 'application', display: 'Application', description: 'Levels, services, versions and ids as applications log them.' },
  { category: 'http', display: 'HTTP', description: 'Requests: method, path, status code and duration.' },
  { category: 'network', display: 'Network', description: 'Addresses, domains, URLs and user agents.' },
  { category: 'people', display: 'People', description: 'Names, emails and user names.' },
  { category: 'commerce', display: 'Commerce', description: 'Products and prices.' },
  { category: 'location', display: 'Location', description: 'Countries and cities.' },
  { category: 'text', display: 'Text', description: 'Words, sentences and phrases for messages.' },
  { category: 'number', display: 'Numbers', description: 'Whole numbers, decimals and booleans within bounds.' },
  { category: 'time', display: 'Time', description: 'The time of the line, as ISO 8601 or Unix seconds.' },
];

const int = (field: string, display: string, defaultValue: number, description: string, optional = true): LogParam => ({
  field,
  display,
  type: 'int',
  optional,
  default: defaultValue,
  description,
});

const num = (params: Record<string, unknown>, key: string, fallback: number) => (typeof params[key] === 'number' ? (params[key] as number) : fallback);

const LEVELS = ['debug', 'info', 'info', 'info', 'info', 'warn', 'error'];
const SERVICES = ['checkout', 'cart', 'auth', 'search', 'payments', 'inventory', 'shipping'];
const STATUS_CLASSES = ['informational', 'success', 'redirection', 'clientError', 'serverError'] as const;

const entries: CatalogueEntry[] = [
  {
    name: 'app.level',
    display: 'Log level',
    category: 'application',
    description: 'debug, info, warn or error, mostly info.',
    params: [],
    generate: () => faker.helpers.arrayElement(LEVELS),
  },
  {
    name: 'app.service',
    display: 'Service name',
    category: 'application',
    description: 'The name of a service of a web shop.',
    params: [],
    generate: () => faker.helpers.arrayElement(SERVICES),
  },
  { name: 'app.version', display: 'Version', category: 'application', description: 'A semantic version.', params: [], generate: () => faker.system.semver() },
  { name: 'app.uuid', display: 'UUID', category: 'application', description: 'A random UUID, e.g. a request id.', params: [], generate: () => faker.string.uuid() },
  {
    name: 'app.traceId',
    display: 'Trace id',
    category: 'application',
    description: '32 lower-case hex digits, as W3C trace ids.',
    params: [],
    generate: () => faker.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' }),
  },
  { name: 'http.method', display: 'HTTP method', category: 'http', description: 'GET, POST, PUT, PATCH, DELETE …', params: [], generate: () => faker.internet.httpMethod() },
  {
    name: 'http.path',
    display: 'URL path',
    category: 'http',
    description: 'A path such as /api/orders/1234.',
    params: [],
    generate: () => `/${faker.helpers.arrayElement(['api', 'v1', 'shop', 'static'])}/${faker.word.noun()}/${faker.number.int({ min: 1, max: 9999 })}`,
  },
  {
    name: 'http.status',
    display: 'HTTP status code',
    category: 'http',
    description: 'A status code, optionally of one class.',
    params: [{ field: 'type', display: 'Class', type: 'string', optional: true, options: [...STATUS_CLASSES], description: 'Only codes of this class.' }],
    generate: (params) =>
      faker.internet.httpStatusCode(
        typeof params.type === 'string' ? { types: [params.type as (typeof STATUS_CLASSES)[number]] } : undefined,
      ),
  },
  {
    name: 'http.durationMs',
    display: 'Duration (ms)',
    category: 'http',
    description: 'A request duration in milliseconds, mostly short with a long tail.',
    params: [int('max', 'Maximum', 3000, 'The longest duration.')],
    generate: (params) => Math.max(1, Math.round(Math.min(num(params, 'max', 3000), -Math.log(1 - Math.random()) * 120))),
  },
  { name: 'internet.ip', display: 'IPv4 address', category: 'network', description: 'An IPv4 address.', params: [], generate: () => faker.internet.ipv4() },
  { name: 'internet.ipv6', display: 'IPv6 address', category: 'network', description: 'An IPv6 address.', params: [], generate: () => faker.internet.ipv6() },
  { name: 'internet.domain', display: 'Domain', category: 'network', description: 'A domain name.', params: [], generate: () => faker.internet.domainName() },
  { name: 'internet.url', display: 'URL', category: 'network', description: 'An https URL.', params: [], generate: () => faker.internet.url() },
  { name: 'internet.userAgent', display: 'User agent', category: 'network', description: 'A browser user agent.', params: [], generate: () => faker.internet.userAgent() },
  { name: 'person.fullName', display: 'Full name', category: 'people', description: 'A first and last name.', params: [], generate: () => faker.person.fullName() },
  { name: 'person.email', display: 'Email', category: 'people', description: 'An email address.', params: [], generate: () => faker.internet.email() },
  { name: 'person.username', display: 'User name', category: 'people', description: 'A user name.', params: [], generate: () => faker.internet.username() },
  { name: 'commerce.product', display: 'Product', category: 'commerce', description: 'A product name.', params: [], generate: () => faker.commerce.productName() },
  {
    name: 'commerce.price',
    display: 'Price',
    category: 'commerce',
    description: 'A price with two decimals.',
    params: [int('min', 'Minimum', 1, 'The lowest price.'), int('max', 'Maximum', 500, 'The highest price.')],
    generate: (params) => Number(faker.commerce.price({ min: num(params, 'min', 1), max: Math.max(num(params, 'min', 1), num(params, 'max', 500)) })),
  },
  { name: 'location.country', display: 'Country code', category: 'location', description: 'An ISO 3166 alpha-2 code.', params: [], generate: () => faker.location.countryCode() },
  { name: 'location.city', display: 'City', category: 'location', description: 'A city name.', params: [], generate: () => faker.location.city() },
  { name: 'text.word', display: 'Word', category: 'text', description: 'One word.', params: [], generate: () => faker.word.sample() },
  {
    name: 'text.sentence',
    display: 'Sentence',
    category: 'text',
    description: 'A sentence of lorem ipsum words.',
    params: [int('words', 'Words', 8, 'How many words.')],
    generate: (params) => faker.lorem.sentence(Math.min(100, num(params, 'words', 8))),
  },
  { name: 'text.phrase', display: 'Phrase', category: 'text', description: 'A technical-sounding phrase.', params: [], generate: () => faker.hacker.phrase() },
  {
    name: 'number.int',
    display: 'Whole number',
    category: 'number',
    description: 'A whole number between a minimum and a maximum.',
    params: [int('min', 'Minimum', 1, 'The smallest value.'), int('max', 'Maximum', 1000, 'The largest value.')],
    generate: (params) => {
      const min = num(params, 'min', 1);
      return faker.number.int({ min, max: Math.max(min, num(params, 'max', 1000)) });
    },
  },
  {
    name: 'number.float',
    display: 'Decimal number',
    category: 'number',
    description: 'A decimal number between a minimum and a maximum.',
    params: [int('min', 'Minimum', 1, 'The smallest value.'), int('max', 'Maximum', 100, 'The largest value.'), int('digits', 'Fraction digits', 2, 'Digits after the point.')],
    generate: (params) => {
      const min = num(params, 'min', 1);
      return faker.number.float({ min, max: Math.max(min, num(params, 'max', 100)), fractionDigits: Math.min(10, num(params, 'digits', 2)) });
    },
  },
  { name: 'number.boolean', display: 'Boolean', category: 'number', description: 'true or false.', params: [], generate: () => faker.datatype.boolean() },
  { name: 'time.iso', display: 'ISO time', category: 'time', description: 'The time of the line, ISO 8601 in UTC.', params: [], generate: (_p, ctx) => ctx.at.toISOString() },
  { name: 'time.unix', display: 'Unix time', category: 'time', description: 'The time of the line in seconds.', params: [], generate: (_p, ctx) => Math.floor(ctx.at.getTime() / 1000) },
];

export const CATALOGUE: ReadonlyMap<string, CatalogueEntry> = new Map(entries.map((entry) => [entry.name, entry]));

/** The catalogue as the API answers it, with an example generated now from each entry's defaults. */
export function listLogOptions(category?: string): LogOption[] {
  const at = new Date();
  return entries
    .filter((entry) => category === undefined || entry.category === category)
    .map(({ generate, ...option }) => {
      const defaults = Object.fromEntries(option.params.filter((p) => p.default !== undefined).map((p) => [p.field, p.default]));
      return { ...option, example: String(generate(defaults, { at })) };
    });
}

/** The structure a new configuration starts with: an HTTP access log. */
export const DEFAULT_STRUCTURE: readonly StructureField[] = [
  { name: 'level', expression: '{{app.level}}' },
  { name: 'service', expression: '{{app.service}}' },
  { name: 'method', expression: '{{http.method}}' },
  { name: 'path', expression: '{{http.path}}' },
  { name: 'status', expression: '{{http.status}}' },
  { name: 'duration_ms', expression: '{{http.durationMs}}' },
  { name: 'client_ip', expression: '{{internet.ip}}' },
  { name: 'msg', expression: '{{text.phrase}}' },
];
