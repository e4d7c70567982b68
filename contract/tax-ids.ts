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
  BG: [...euVat('BG0123456789'), { type: 'bg_uic', description: 'Bulgaria Unified Identification Code', example: '123456789' }],
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
  CH: [{ type: 'ch_vat', description: 'Switzerland VAT number', example: 'CHE-123.456.789 MWST' }, { type: 'ch_uid', description: 'Switzerland UID number', example: 'CHE-123.456.789 HR' }],
  CL: [{ type: 'cl_tin', description: 'Chilean TIN', example: '12.345.678-K' }],
  CY: euVat('CY12345678Z'),
  CZ: euVat('CZ1234567890'),
  DE: [...euVat('DE123456789'), { type: 'de_stn', description: 'German Tax Number (Steuernummer)', example: '1234567890' }],
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
  HR: [...euVat('HR12345678912'), { type: 'hr_oib', description: 'Croatian Personal Identification Number', example: '12345678901' }],
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
  LI: [{ type: 'li_uid', description: 'Liechtensteinian UID number', example: 'CHE123456789' }, { type: 'li_vat', description: 'Liechtensteinian VAT number', example: '12345' }],
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
  NO: [{ type: 'no_vat', description: 'Norwegian VAT number', example: '123456789MVA' }, { type: 'no_voec', description: 'Norwegian VAT on e-commerce number', example: '1234567' }],
  NZ: [{ type: 'nz_gst', description: 'New Zealand GST number', example: '123456789' }],
  PL: euVat('PL1234567890'),
  PT: euVat('PT123456789'),
  RO: [...euVat('RO1234567891'), { type: 'ro_tin', description: 'Romanian tax ID number', example: '1234567890123' }],
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
  SI: [...euVat('SI12345678'), { type: 'si_tin', description: 'Slovenia tax number (davčna številka)', example: '12345678' }],
  SK: euVat('SK1234567891'),
  TH: [{ type: 'th_vat', description: 'Thai VAT', example: '1234567891234' }],
  TW: [{ type: 'tw_vat', description: 'Taiwanese VAT', example: '12345678' }],
  UA: [{ type: 'ua_vat', description: 'Ukrainian VAT', example: '123456789' }],
  US: [{ type: 'us_ein', description: 'United States EIN', example: '12-3456789' }],
  ZA: [{ type: 'za_vat', description: 'South African VAT number', example: '4123456789' }],
  AD: [{ type: 'ad_nrt', description: 'Andorran NRT number', example: 'A-123456-Z' }],
  AL: [{ type: 'al_tin', description: 'Albania Tax Identification Number', example: 'J12345678N' }],
  AM: [{ type: 'am_tin', description: 'Armenia Tax Identification Number', example: '02538904' }],
  AO: [{ type: 'ao_tin', description: 'Angola Tax Identification Number', example: '5123456789' }],
  AR: [{ type: 'ar_cuit', description: 'Argentinian tax ID number', example: '12-3456789-01' }],
  AW: [{ type: 'aw_tin', description: 'Aruba Tax Identification Number', example: '12345678' }],
  AZ: [{ type: 'az_tin', description: 'Azerbaijan Tax Identification Number', example: '0123456789' }],
  BA: [{ type: 'ba_tin', description: 'Bosnia and Herzegovina Tax Identification Number', example: '123456789012' }],
  BB: [{ type: 'bb_tin', description: 'Barbados Tax Identification Number', example: '1123456789012' }],
  BD: [{ type: 'bd_bin', description: 'Bangladesh Business Identification Number', example: '123456789-0123' }],
  BF: [{ type: 'bf_ifu', description: 'Burkina Faso Tax Identification Number (Numéro d’Identifiant Fiscal Unique)', example: '12345678A' }],
  BH: [{ type: 'bh_vat', description: 'Bahraini VAT Number', example: '123456789012345' }],
  BJ: [{ type: 'bj_ifu', description: 'Benin Tax Identification Number (Identifiant Fiscal Unique)', example: '1234567890123' }],
  BO: [{ type: 'bo_tin', description: 'Bolivian tax ID', example: '123456789' }],
  BS: [{ type: 'bs_tin', description: 'Bahamas Tax Identification Number', example: '123.456.789' }],
  BY: [{ type: 'by_tin', description: 'Belarus TIN Number', example: '123456789' }],
  CD: [{ type: 'cd_nif', description: 'Congo (DR) Tax Identification Number (Número de Identificação Fiscal)', example: 'A0123456M' }],
  CM: [{ type: 'cm_niu', description: 'Cameroon Tax Identification Number (Numéro d’Identifiant fiscal Unique)', example: 'M123456789000L' }],
  CN: [{ type: 'cn_tin', description: 'Chinese tax ID', example: '123456789012345678' }],
  CO: [{ type: 'co_nit', description: 'Colombian NIT number', example: '123.456.789-0' }],
  CR: [{ type: 'cr_tin', description: 'Costa Rican tax ID', example: '1-234-567890' }],
  CV: [{ type: 'cv_nif', description: 'Cape Verde Tax Identification Number (Número de Identificação Fiscal)', example: '213456789' }],
  DO: [{ type: 'do_rcn', description: 'Dominican Republic RCN', example: '123-4567890-1' }],
  EC: [{ type: 'ec_ruc', description: 'Ecuadorian RUC number', example: '1234567890001' }],
  EG: [{ type: 'eg_tin', description: 'Egyptian Tax Identification Number', example: '123456789' }],
  ET: [{ type: 'et_tin', description: 'Ethiopia Tax Identification Number', example: '1234567890' }],
  GE: [{ type: 'ge_vat', description: 'Georgian VAT', example: '123456789' }],
  GN: [{ type: 'gn_nif', description: 'Guinea Tax Identification Number (Número de Identificação Fiscal)', example: '123456789' }],
  KE: [{ type: 'ke_pin', description: 'Kenya Revenue Authority Personal Identification Number', example: 'P000111111A' }],
  KG: [{ type: 'kg_tin', description: 'Kyrgyzstan Tax Identification Number', example: '12345678901234' }],
  KH: [{ type: 'kh_tin', description: 'Cambodia Tax Identification Number', example: '1001-123456789' }],
  KZ: [{ type: 'kz_bin', description: 'Kazakhstani Business Identification Number', example: '123456789012' }],
  LA: [{ type: 'la_tin', description: 'Laos Tax Identification Number', example: '123456789-000' }],
  MA: [{ type: 'ma_vat', description: 'Morocco VAT Number', example: '12345678' }],
  MD: [{ type: 'md_vat', description: 'Moldova VAT Number', example: '1234567' }],
  ME: [{ type: 'me_pib', description: 'Montenegro PIB Number', example: '12345678' }],
  MK: [{ type: 'mk_vat', description: 'North Macedonia VAT Number', example: 'MK1234567890123' }],
  MR: [{ type: 'mr_nif', description: 'Mauritania Tax Identification Number (Número de Identificação Fiscal)', example: '12345678' }],
  NG: [{ type: 'ng_tin', description: 'Nigerian Tax Identification Number', example: '12345678-0001' }],
  NP: [{ type: 'np_pan', description: 'Nepal PAN Number', example: '123456789' }],
  OM: [{ type: 'om_vat', description: 'Omani VAT Number', example: 'OM1234567890' }],
  PE: [{ type: 'pe_ruc', description: 'Peruvian RUC number', example: '12345678901' }],
  PH: [{ type: 'ph_tin', description: 'Philippines Tax Identification Number', example: '123456789012' }],
  RS: [{ type: 'rs_pib', description: 'Serbian PIB number', example: '123456789' }],
  SN: [{ type: 'sn_ninea', description: 'Senegal NINEA Number', example: '12345672A2' }],
  SR: [{ type: 'sr_fin', description: 'Suriname FIN Number', example: '1234567890' }],
  SV: [{ type: 'sv_nit', description: 'El Salvadorian NIT number', example: '1234-567890-123-4' }],
  TJ: [{ type: 'tj_tin', description: 'Tajikistan Tax Identification Number', example: '123456789' }],
  TR: [{ type: 'tr_tin', description: 'Turkish Tax Identification Number', example: '0123456789' }],
  TZ: [{ type: 'tz_vat', description: 'Tanzania VAT Number', example: '12345678A' }],
  UG: [{ type: 'ug_tin', description: 'Uganda Tax Identification Number', example: '1014751879' }],
  UY: [{ type: 'uy_ruc', description: 'Uruguayan RUC number', example: '123456789012' }],
  UZ: [{ type: 'uz_tin', description: 'Uzbekistan TIN Number', example: '123456789' }, { type: 'uz_vat', description: 'Uzbekistan VAT Number', example: '123456789012' }],
  VE: [{ type: 've_rif', description: 'Venezuelan RIF number', example: 'A-12345678-9' }],
  VN: [{ type: 'vn_tin', description: 'Vietnamese tax ID number', example: '1234567890' }],
  ZM: [{ type: 'zm_tin', description: 'Zambia Tax Identification Number', example: '1004751879' }],
  ZW: [{ type: 'zw_tin', description: 'Zimbabwe Tax Identification Number', example: '1234567890' }],
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
