// Tax id types accepted per country (ISO 3166-1 alpha-2), with the format a person should type. The table follows
// the card payment provider's tax id types so that a local record can be forwarded to it unchanged.

export interface TaxIdType {
  readonly type: string;
  readonly description: string;
  readonly example: string;
}

const euVat = (example: string): TaxIdType[] => [{ type: 'eu_vat', description: 'European VAT number', example }];

export const TAX_ID_TYPES_BY_COUNTRY: Readonly<Record<string, readonly TaxIdType[]>> = {
  AE: [{ type: 'ae_trn', description: 'United Arab Emirates TRN', example: '123456789012345' }],
  AT: euVat('ATU12345678'),
  AU: [
    { type: 'au_abn', description: 'Australian Business Number (AU ABN)', example: '12345678912' },
    { type: 'au_arn', description: 'Australian Taxation Office Reference Number', example: '123456789123' },
  ],
  BE: euVat('BE0123456789'),
  BG: euVat('BG0123456789'),
  BR: [
    { type: 'br_cnpj', description: 'Brazilian CNPJ number', example: '01.234.456/5432-10' },
    { type: 'br_cpf', description: 'Brazilian CPF number', example: '123.456.789-87' },
  ],
  CA: [
    { type: 'ca_bn', description: 'Canadian BN', example: '123456789' },
    { type: 'ca_gst_hst', description: 'Canadian GST/HST number', example: '123456789RT0002' },
    { type: 'ca_pst_bc', description: 'Canadian PST number (British Columbia)', example: 'PST-1234-5678' },
    { type: 'ca_pst_mb', description: 'Canadian PST number (Manitoba)', example: '123456-7' },
    { type: 'ca_pst_sk', description: 'Canadian PST number (Saskatchewan)', example: '1234567' },
    { type: 'ca_qst', description: 'Canadian QST number (Québec)', example: '1234567890TQ1234' },
  ],
  CH: [{ type: 'ch_vat', description: 'Switzerland VAT number', example: 'CHE-123.456.789 MWST' }],
  CL: [{ type: 'cl_tin', description: 'Chilean TIN', example: '12.345.678-K' }],
  CY: euVat('CY12345678Z'),
  CZ: euVat('CZ1234567890'),
  DE: euVat('DE123456789'),
  DK: euVat('DK12345678'),
  EE: euVat('EE123456789'),
  ES: [
    { type: 'es_cif', description: 'Spanish NIF number (previously Spanish CIF number)', example: 'A12345678' },
    ...euVat('ESA1234567Z'),
  ],
  FI: euVat('FI12345678'),
  FR: euVat('FRAB123456789'),
  GB: [{ type: 'gb_vat', description: 'United Kingdom VAT number', example: 'GB123456789' }],
  GR: euVat('EL123456789'),
  HK: [{ type: 'hk_br', description: 'Hong Kong BR number', example: '12345678' }],
  HR: euVat('HR12345678912'),
  HU: [
    { type: 'hu_tin', description: 'Hungary tax number (adószám)', example: '12345678-1-23' },
    ...euVat('HU12345678'),
  ],
  ID: [{ type: 'id_npwp', description: 'Indonesian NPWP number', example: '12.345.678.9-012.345' }],
  IE: euVat('IE1234567AB'),
  IL: [{ type: 'il_vat', description: 'Israel VAT', example: '000012345' }],
  IN: [{ type: 'in_gst', description: 'Indian GST number', example: '12ABCDE3456FGZH' }],
  IS: [{ type: 'is_vat', description: 'Icelandic VAT', example: '123456' }],
  IT: euVat('IT12345678912'),
  JP: [
    { type: 'jp_cn', description: 'Japanese Corporate Number (*Hōjin Bangō*)', example: '1234567891234' },
    { type: 'jp_rn', description: 'Japanese Registered Foreign Businesses Registration Number', example: '12345' },
    { type: 'jp_trn', description: 'Japanese Tax Registration Number (*Tōroku Bangō*)', example: 'T1234567891234' },
  ],
  KR: [{ type: 'kr_brn', description: 'Korean BRN', example: '123-45-67890' }],
  LI: [{ type: 'li_uid', description: 'Liechtensteinian UID number', example: 'CHE123456789' }],
  LT: euVat('LT123456789123'),
  LU: euVat('LU12345678'),
  LV: euVat('LV12345678912'),
  MT: euVat('MT12345678'),
  MX: [{ type: 'mx_rfc', description: 'Mexican RFC number', example: 'ABC010203AB9' }],
  MY: [
    { type: 'my_frp', description: 'Malaysian FRP number', example: '12345678' },
    { type: 'my_itn', description: 'Malaysian ITN', example: 'C 1234567890' },
    { type: 'my_sst', description: 'Malaysian SST number', example: 'A12-3456-78912345' },
  ],
  NL: euVat('NL123456789B12'),
  NO: [{ type: 'no_vat', description: 'Norwegian VAT number', example: '123456789MVA' }],
  NZ: [{ type: 'nz_gst', description: 'New Zealand GST number', example: '123456789' }],
  PL: euVat('PL1234567890'),
  PT: euVat('PT123456789'),
  RO: euVat('RO1234567891'),
  RU: [
    { type: 'ru_inn', description: 'Russian INN', example: '1234567891' },
    { type: 'ru_kpp', description: 'Russian KPP', example: '123456789' },
  ],
  SA: [{ type: 'sa_vat', description: 'Saudi Arabia VAT', example: '123456789012345' }],
  SE: euVat('SE123456789123'),
  SG: [
    { type: 'sg_gst', description: 'Singaporean GST', example: 'M12345678X' },
    { type: 'sg_uen', description: 'Singaporean UEN', example: '123456789F' },
  ],
  SI: euVat('SI12345678'),
  SK: euVat('SK1234567891'),
  TH: [{ type: 'th_vat', description: 'Thai VAT', example: '1234567891234' }],
  TW: [{ type: 'tw_vat', description: 'Taiwanese VAT', example: '12345678' }],
  UA: [{ type: 'ua_vat', description: 'Ukrainian VAT', example: '123456789' }],
  US: [{ type: 'us_ein', description: 'United States EIN', example: '12-3456789' }],
  ZA: [{ type: 'za_vat', description: 'South African VAT number', example: '4123456789' }],
};

/** The tax id types a country offers; empty when the country has none. */
export function taxIdTypesFor(country: string): readonly TaxIdType[] {
  return TAX_ID_TYPES_BY_COUNTRY[country.toUpperCase()] ?? [];
}

/** Every known tax id type code. */
export const TAX_ID_TYPE_CODES: readonly string[] = [
  ...new Set(Object.values(TAX_ID_TYPES_BY_COUNTRY).flatMap((types) => types.map((t) => t.type))),
];

/** Separators people type inside tax ids; they are ignored when the value is compared with the format. */
const SEPARATORS = /[\s.\-/]/g;

/**
 * The format of a type, derived from its example: each digit of the example is a digit, each letter a letter or a
 * digit (examples use letters where real ids may have either), separators are optional. The two-letter country
 * prefix of an EU VAT number must be the example's own. The hosted provider checks the value again (checksums).
 */
export function taxIdPattern(example: string, type: string): RegExp {
  const compact = example.toUpperCase().replace(SEPARATORS, '');
  const prefixLength = type === 'eu_vat' ? 2 : 0;
  const body = [...compact.slice(prefixLength)].map((c) => (/[0-9]/.test(c) ? '[0-9]' : /[A-Z]/.test(c) ? '[A-Z0-9]' : c.replace(/[^\w]/g, '\\$&'))).join('');
  return new RegExp(`^${compact.slice(0, prefixLength)}${body}$`);
}

/** Null when the value has the format of the type (in that country, when given), else the message to show. */
export function taxIdValueProblem(type: string, value: string, country?: string): string | null {
  const candidates = (country ? taxIdTypesFor(country) : Object.values(TAX_ID_TYPES_BY_COUNTRY).flat()).filter((t) => t.type === type);
  if (candidates.length === 0) return null;
  const compact = value.toUpperCase().replace(SEPARATORS, '');
  if (candidates.some((candidate) => taxIdPattern(candidate.example, type).test(compact))) return null;
  return `This is not a valid ${candidates[0].description}. Expected a value like ${candidates[0].example}.`;
}
