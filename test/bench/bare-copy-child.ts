import { openDuck, sqlString } from '../../ingest/lake/duck.ts';

/**
 * The bare engine baseline of the 13F ingest bench, in its own process so its CPU and peak RSS are its own:
 * `read_csv` of one INFOTABLE straight into a zstd Parquet file, with the ingest's DuckDB settings (2 threads).
 * Prints `cpu_ms=` (the COPY alone) and `peak_rss_mb=` (the whole process).
 */
const [infotable, out] = process.argv.slice(2);
const { conn, instance } = await openDuck(':memory:', { threads: '2' });
const before = process.cpuUsage();
await conn.run(
  `COPY (SELECT * FROM read_csv(${sqlString(infotable)}, delim='\t', header=true, quote='', escape='')) ` +
    `TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`,
);
const cpu = process.cpuUsage(before);
conn.closeSync();
instance.closeSync();
console.log(`cpu_ms=${Math.round((cpu.user + cpu.system) / 1000)}`);
console.log(`peak_rss_mb=${Math.round(process.resourceUsage().maxRSS / 1024)}`);
