// Reads Parquet files (a path or a glob) with DuckDB, not relurl's
// writer, and prints their rows as JSON lines.
import { createRequire } from 'module';
const require = createRequire(process.env.NODE_PATH.split(':')[0] + '/');
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const file = process.argv[2].replaceAll("'", "''");
const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
for (const row of r.getRowObjectsJson()) console.log(JSON.stringify(row));
