// Colombia's DANE DIVIPOLA table: 33 departments (with Bogotá D.C.) and 1,123 municipalities.
// {country} is ISO 3166-1 alpha-2 ("CO"); region codes are the two-digit DANE department code
// ("05" Antioquia, "11" Bogotá D.C.) and city codes the five-digit municipality code.
import { sql, type Kysely } from 'kysely';
import divipola from '../seed-data/colombia-divipola.json' with { type: 'json' };

interface DivipolaRow {
  'CÓDIGO DANE DEL DEPARTAMENTO': number;
  DEPARTAMENTO: string;
  'CÓDIGO DANE DEL MUNICIPIO': number;
  MUNICIPIO: string;
}

export const regionCode = (dane: number) => String(dane).padStart(2, '0');
export const cityCode = (dane: number) => String(dane).padStart(5, '0');

export async function up(db: Kysely<any>): Promise<void> {
  const rows = divipola as DivipolaRow[];
  await db.insertInto('countries').values({ code: 'CO', name: 'Colombia' }).execute();
  const regions = new Map<string, string>();
  for (const r of rows) regions.set(regionCode(r['CÓDIGO DANE DEL DEPARTAMENTO']), r.DEPARTAMENTO);
  await db.insertInto('regions').values([...regions].map(([code, name]) => ({ country_code: 'CO', code, name }))).execute();
  const cities = rows.map((r) => ({
    country_code: 'CO',
    region_code: regionCode(r['CÓDIGO DANE DEL DEPARTAMENTO']),
    code: cityCode(r['CÓDIGO DANE DEL MUNICIPIO']),
    name: r.MUNICIPIO,
  }));
  // Batches keep each statement's parameter count well under PostgreSQL's 65,535 limit.
  for (let i = 0; i < cities.length; i += 500) await db.insertInto('cities').values(cities.slice(i, i + 500)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from cities`.execute(db);
  await sql`delete from regions`.execute(db);
  await sql`delete from countries`.execute(db);
}
