// Reads a Parquet file with DuckDB (not relurl's writer) and prints its
// rows as JSON lines, and the column types on standard error.
import { createRequire } from 'module';
const require = createRequire(process.env.NODE_PATH.split(':')[0] + '/');
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const file = process.argv[2].replaceAll("'", "''");
const types = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
process.stderr.write(JSON.stringify(types.getRowObjectsJson()) + '\n');
const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
for (const row of r.getRowObjectsJson()) console.log(JSON.stringify(row));
