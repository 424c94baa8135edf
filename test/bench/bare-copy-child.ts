import { openDuck, sqlString } from '../../ingest/lake/duck.ts';

/**
 * The bare engine baseline of the ingest benches, in its own process so its CPU and peak RSS are its own:
 * `read_csv` of each input straight into its own zstd Parquet file, with the ingest's DuckDB settings (2 threads).
 * Arguments: pairs of `<input.tsv> <output.parquet>`. Prints `cpu_ms=` (the COPYs alone) and `peak_rss_mb=`
 * (the whole process).
 */
const args = process.argv.slice(2);
const { conn, instance } = await openDuck(':memory:', { threads: '2' });
const before = process.cpuUsage();
for (let i = 0; i + 1 < args.length; i += 2) {
  await conn.run(
    `COPY (SELECT * FROM read_csv(${sqlString(args[i])}, delim='\t', header=true, quote='', escape='')) ` +
      `TO ${sqlString(args[i + 1])} (FORMAT parquet, COMPRESSION zstd)`,
  );
}
const cpu = process.cpuUsage(before);
conn.closeSync();
instance.closeSync();
console.log(`cpu_ms=${Math.round((cpu.user + cpu.system) / 1000)}`);
console.log(`peak_rss_mb=${Math.round(process.resourceUsage().maxRSS / 1024)}`);
