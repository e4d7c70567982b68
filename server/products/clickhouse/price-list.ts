import { HOURS_PER_MONTH, type Continent, type DiskType, type Machine, type Provider, type Region } from '../../../contract/clickhouse';

// The platform's price list for managed ClickHouse: the one place where regions, machine types, disk types, zones
// and versions are defined (docs/clickhouse.md). Region and machine codes are the providers' real ones; prices are
// the platform's own, in USD, VAT included, and a machine's monthly cost is its hourly price over 730 hours.

const region = (provider: Provider, code: string, name: string, continent: Continent): Region => ({ provider, code, name, continent });

export const REGIONS: readonly Region[] = [
  region('aws', 'us-east-1', 'US East (N. Virginia)', 'Americas'),
  region('aws', 'us-west-2', 'US West (Oregon)', 'Americas'),
  region('aws', 'ca-central-1', 'Canada (Central)', 'Americas'),
  region('aws', 'sa-east-1', 'South America (São Paulo)', 'Americas'),
  region('aws', 'eu-central-1', 'Europe (Frankfurt)', 'Europe'),
  region('aws', 'eu-west-1', 'Europe (Ireland)', 'Europe'),
  region('aws', 'eu-west-2', 'Europe (London)', 'Europe'),
  region('aws', 'ap-southeast-1', 'Asia Pacific (Singapore)', 'Asia Pacific'),
  region('aws', 'ap-northeast-1', 'Asia Pacific (Tokyo)', 'Asia Pacific'),
  region('aws', 'ap-south-1', 'Asia Pacific (Mumbai)', 'Asia Pacific'),
  region('aws', 'ap-southeast-2', 'Asia Pacific (Sydney)', 'Oceania'),
  region('aws', 'me-south-1', 'Middle East (Bahrain)', 'Middle East'),
  region('aws', 'af-south-1', 'Africa (Cape Town)', 'Africa'),
  region('gcp', 'us-central1', 'Iowa', 'Americas'),
  region('gcp', 'us-east1', 'South Carolina', 'Americas'),
  region('gcp', 'southamerica-east1', 'São Paulo', 'Americas'),
  region('gcp', 'europe-west1', 'Belgium', 'Europe'),
  region('gcp', 'europe-west3', 'Frankfurt', 'Europe'),
  region('gcp', 'asia-southeast1', 'Singapore', 'Asia Pacific'),
  region('gcp', 'asia-northeast1', 'Tokyo', 'Asia Pacific'),
  region('gcp', 'australia-southeast1', 'Sydney', 'Oceania'),
  region('gcp', 'me-central1', 'Doha', 'Middle East'),
  region('gcp', 'africa-south1', 'Johannesburg', 'Africa'),
];

/** gcp zones per region (the provider's zone names). */
export const GCP_ZONES: Readonly<Record<string, readonly string[]>> = {
  'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'],
  'us-east1': ['us-east1-b', 'us-east1-c', 'us-east1-d'],
  'southamerica-east1': ['southamerica-east1-a', 'southamerica-east1-b', 'southamerica-east1-c'],
  'europe-west1': ['europe-west1-b', 'europe-west1-c', 'europe-west1-d'],
  'europe-west3': ['europe-west3-a', 'europe-west3-b', 'europe-west3-c'],
  'asia-southeast1': ['asia-southeast1-a', 'asia-southeast1-b', 'asia-southeast1-c'],
  'asia-northeast1': ['asia-northeast1-a', 'asia-northeast1-b', 'asia-northeast1-c'],
  'australia-southeast1': ['australia-southeast1-a', 'australia-southeast1-b', 'australia-southeast1-c'],
  'me-central1': ['me-central1-a', 'me-central1-b', 'me-central1-c'],
  'africa-south1': ['africa-south1-a', 'africa-south1-b', 'africa-south1-c'],
};

/** The zones of a GCP region; none for a code that is not a region (own keys only: `toString` is no region). */
export function gcpZones(regionCode: string): readonly string[] {
  return Object.hasOwn(GCP_ZONES, regionCode) ? GCP_ZONES[regionCode] : [];
}

const machine = (provider: Provider, name: string, title: string, cpu: number, ram: number, price: number): Machine => ({
  provider,
  name,
  title,
  cpu,
  ram,
  ram_unit: 'GiB',
  ram_unit_name: 'Gibibytes',
  price,
  monthly_cost: Math.round(price * HOURS_PER_MONTH * 100) / 100,
});

export const MACHINES: readonly Machine[] = [
  machine('aws', 'm5_large', 'm5.large', 2, 8, 0.12),
  machine('aws', 'm5_xlarge', 'm5.xlarge', 4, 16, 0.24),
  machine('aws', 'm5_2xlarge', 'm5.2xlarge', 8, 32, 0.48),
  machine('aws', 'r5_large', 'r5.large', 2, 16, 0.16),
  machine('aws', 'r5_xlarge', 'r5.xlarge', 4, 32, 0.32),
  machine('gcp', 'n2_standard_2', 'n2-standard-2', 2, 8, 0.12),
  machine('gcp', 'n2_standard_4', 'n2-standard-4', 4, 16, 0.24),
  machine('gcp', 'n2_standard_8', 'n2-standard-8', 8, 32, 0.48),
  machine('gcp', 'n2_highmem_2', 'n2-highmem-2', 2, 16, 0.16),
  machine('gcp', 'n2_highmem_4', 'n2-highmem-4', 4, 32, 0.32),
];

const disk = (name: string, title: string, pricePerGbMonth: number): DiskType => ({
  name,
  title,
  unit: 'GB',
  unit_names: ['GB', 'GiB'],
  price: pricePerGbMonth,
  monthly_rate_price: pricePerGbMonth / 1e9,
});

export const DISK_TYPES: Readonly<Record<Provider, readonly DiskType[]>> = {
  aws: [disk('gp3', 'General purpose SSD (gp3)', 0.1), disk('gp2', 'General purpose SSD (gp2)', 0.12), disk('io1', 'Provisioned IOPS SSD (io1)', 0.15), disk('st1', 'Throughput optimized HDD (st1)', 0.054)],
  gcp: [disk('pd-ssd', 'SSD persistent disk', 0.2), disk('pd-balanced', 'Balanced persistent disk', 0.12), disk('pd-standard', 'Standard persistent disk', 0.048)],
};
/** The trial's "150 GB SSD" disk per provider. */
export const DEFAULT_DISK_TYPES: Record<Provider, string> = { aws: 'gp3', gcp: 'pd-ssd' };


export const findRegion = (provider: string, code: string) => REGIONS.find((r) => r.provider === provider && r.code === code);
export const findMachine = (provider: string, name: string) => MACHINES.find((m) => m.provider === provider && m.name === name);
export const findDiskType = (provider: string, name: string) => (DISK_TYPES[provider as Provider] ?? []).find((d) => d.name === name);
