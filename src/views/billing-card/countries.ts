// The card form's country list: every ISO 3166-1 country with its English name (i18n-iso-countries), by name.
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json';
import type { SelectItem } from '../../components/ui/select';

countries.registerLocale(english);

let cached: SelectItem[] | null = null;

export function countryItems(): SelectItem[] {
  cached ??= Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([code, name]) => ({ value: code, label: name }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  return cached;
}
