#!/bin/sh
# The stand-in postgres image's entrypoint: on an empty PGDATA, initdb with POSTGRES_USER (default postgres) and
# POSTGRES_PASSWORD (password authentication from the network), create POSTGRES_DB; then run the command.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?the postgres stand-in needs POSTGRES_PASSWORD}"
    user="${POSTGRES_USER:-postgres}"
    password_file=$(mktemp)
    printf '%s' "$POSTGRES_PASSWORD" >"$password_file"
    initdb --username="$user" --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$password_file"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    database="${POSTGRES_DB:-$user}"
    if [ "$database" != postgres ]; then
        pg_ctl --wait --silent --options="-c listen_addresses=''" start
        psql --username="$user" --dbname=postgres --quiet --command="CREATE DATABASE \"$database\""
        pg_ctl --wait --silent --mode=fast stop
    fi
fi
exec "$@"
