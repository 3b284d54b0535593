// A throwaway PostgreSQL server for the team tests, as the Go tests' pgtest
// package makes one: initdb in a temporary directory, a Unix socket in it
// and no TCP port, fsync off; run as Debian's postgres user when the tests
// run as root (PostgreSQL refuses root). Debian's postgresql package is
// installed by the test setup.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin/initdb'))) : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql)');
  versions.sort((a, b) => Number(b) - Number(a));
  return join(root, versions[0], 'bin');
}

// startPostgres starts a server and returns { url(name), database(), stop() }.
export function startPostgres() {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'ctxscope-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const run = (program, ...args) => {
    const path = join(bin, program);
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
    return execFileSync(cmd, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  };
  const data = join(dir, 'data');
  run('initdb', '-D', data, '-U', 'ctxscope', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C');
  run('pg_ctl', '-D', data, '-l', join(dir, 'server.log'), '-o', `-c listen_addresses='' -k ${dir} -c fsync=off -c max_connections=200`, '-w', 'start');
  let n = 0;
  const url = (name) => `postgres://ctxscope@/${name}?host=${encodeURIComponent(dir)}&sslmode=disable`;
  return {
    url,
    // database creates an empty database and returns its URL.
    database() {
      const name = `team_${process.pid}_${++n}`;
      execFileSync(join(bin, 'psql'), ['-h', dir, '-U', 'ctxscope', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`], { stdio: 'ignore' });
      return url(name);
    },
    stop() {
      try { run('pg_ctl', '-D', data, '-m', 'immediate', '-w', 'stop'); } finally { rmSync(dir, { recursive: true, force: true }); }
    },
  };
}
