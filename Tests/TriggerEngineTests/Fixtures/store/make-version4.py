#!/usr/bin/env python3
"""Writes version4.sqlite: a store as schema version 4 left it, whose JSON values
(delivered notifications, categories, event fires, location triggers) are the
public types' Codable of that version. Every value below is literal text, so the
fixture does not change when the library's Codable does; the migration test
(`versionFourStoreIsMigratedToTheStoredForms`) reads it back.

Run from this folder: python3 make-version4.py
"""
import os
import sqlite3

PATH = "version4.sqlite"
if os.path.exists(PATH):
    os.remove(PATH)
db = sqlite3.connect(PATH)
db.executescript("""
CREATE TABLE delivered(
    id INTEGER PRIMARY KEY AUTOINCREMENT, identifier TEXT NOT NULL,
    recipient TEXT NOT NULL, date REAL NOT NULL, json BLOB NOT NULL, set_aside TEXT);
CREATE INDEX delivered_identifier ON delivered(identifier);
CREATE TABLE categories(identifier TEXT PRIMARY KEY NOT NULL, json BLOB NOT NULL, set_aside TEXT);
CREATE TABLE authorization(recipient TEXT PRIMARY KEY NOT NULL, status TEXT NOT NULL, options INTEGER NOT NULL);
CREATE TABLE device_tokens(recipient TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY(recipient, token));
CREATE TABLE event_fires(
    id TEXT PRIMARY KEY NOT NULL, identifier TEXT NOT NULL, due REAL NOT NULL, json BLOB NOT NULL, set_aside TEXT);
CREATE INDEX event_fires_identifier ON event_fires(identifier);
CREATE TABLE triggers(
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, kind INTEGER NOT NULL, repeats INTEGER NOT NULL,
    zone TEXT, parameters TEXT, start TEXT, exdates TEXT, rdates TEXT);
CREATE TABLE pending(
    identifier TEXT PRIMARY KEY NOT NULL, recipient TEXT NOT NULL, next_fire REAL, added REAL,
    misfire INTEGER NOT NULL, kind INTEGER NOT NULL, repeats INTEGER NOT NULL, interval REAL,
    trigger INTEGER REFERENCES triggers(id), title TEXT NOT NULL, subtitle TEXT NOT NULL, body TEXT NOT NULL,
    badge INTEGER, sound TEXT, category TEXT NOT NULL, thread TEXT NOT NULL, user_info BLOB, set_aside TEXT);
""")

US = "\x1f"


def key(kind, repeats, zone=None, parameters=None, start=None, exdates=None, rdates=None):
    text = f"{kind}{repeats}"
    for column in (zone, parameters, start, exdates, rdates):
        text += US + ("-" if column is None else "=" + column)
    return text


home = '{"location":{"notifyOnEntry":true,"notifyOnExit":false,"region":{"center":{"lat":48.8566,"lon":2.3522},"radius":200},"repeats":true}}'
# The same trigger with its keys in another order: version 4 sorted them, so
# this row stands for JSON written by any other encoder; it must merge with `home`.
home_unsorted = '{"location":{"repeats":true,"region":{"radius":200,"center":{"lon":2.3522,"lat":48.8566}},"notifyOnExit":false,"notifyOnEntry":true}}'
park = ('{"location":{"monitor":{"dwell":120,"hysteresis":25,"initial":"enter"},"notifyOnEntry":true,"notifyOnExit":true,'
        '"region":{"type":"MultiPolygon","coordinates":[[[[2.29,48.85],[2.30,48.85],[2.30,48.86],[2.29,48.86],[2.29,48.85]],'
        '[[2.294,48.854],[2.296,48.854],[2.296,48.856],[2.294,48.856],[2.294,48.854]]]]},"repeats":false}}')
broken = '{"location":{"notifyOnEntry":true,"region":{"center":{"lat":123,"lon":2},"radius":50}}}'
triggers = [
    (1, key(3, 1, parameters=home), 3, 1, None, home),
    (2, key(3, 1, parameters=home_unsorted), 3, 1, None, home_unsorted),
    (3, key(3, 0, parameters=park), 3, 0, None, park),
    (4, key(1, 1, zone="Europe/Paris", parameters="hour=9;minute=0"), 1, 1, "Europe/Paris", "hour=9;minute=0"),
    (5, key(3, 0, parameters=broken), 3, 0, None, broken),
]
db.executemany("INSERT INTO triggers(id, key, kind, repeats, zone, parameters) VALUES (?, ?, ?, ?, ?, ?)", triggers)
pending = [
    # identifier, recipient, next_fire, added, misfire, kind, repeats, interval, trigger, title, user_info
    ("home", "alice", None, 1767225600.0, 0, 3, 1, None, 1, "Home", None),
    ("home-again", "bob", None, 1767225600.0, 0, 3, 1, None, 2, "Home too", None),
    ("park", "alice", None, 1767225600.0, 1, 3, 0, None, 3, "Park", b'{"gate":"north"}'),
    ("coffee", "", 1767254400.0, 1767225600.0, 2, 1, 1, None, 4, "Coffee", None),
    ("lost", "", None, 1767225600.0, 0, 3, 0, None, 5, "Lost", None),
]
db.executemany("""INSERT INTO pending(identifier, recipient, next_fire, added, misfire, kind, repeats, interval, trigger,
                  title, subtitle, body, badge, sound, category, thread, user_info)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', '', NULL, NULL, '', '', ?)""", pending)

standup = ('{"identifier":"standup","content":{"title":"Stand-up","body":"Room 4","badge":2,"sound":"default",'
           '"userInfo":{"room":"B2","floor":4,"remote":false,"tags":["daily",null]},"categoryIdentifier":"MEETING",'
           '"threadIdentifier":"team"},"trigger":{"calendar":{"dateMatching":{"hour":9,"minute":30},"repeats":true,'
           '"timeZone":"Europe/Berlin"}},"misfire":"skipToNext","added":"2026-01-01T00:00:00Z"}')
water = '{"identifier":"water","content":{"title":"Water","sound":"drop.caf"},"trigger":{"timeInterval":{"interval":900,"repeats":false}}}'
db.executemany("INSERT INTO delivered(identifier, recipient, date, json) VALUES (?, ?, ?, ?)", [
    ("standup", "alice", 1767256200.0, standup.encode()),
    ("water", "", 1767226500.0, water.encode()),
    ("garbage", "", 1767226600.0, b'{"identifier":"garbage","trigger":{"sundial":{}}}'),
])
meeting = ('{"identifier":"MEETING","actions":[{"identifier":"ACCEPT","title":"Accept","options":["foreground"]},'
           '{"identifier":"REPLY","title":"Reply","options":["authenticationRequired","destructive"],'
           '"textInput":{"buttonTitle":"Send","placeholder":"Message"}}],"intentIdentifiers":["INStartCallIntent"],'
           '"options":["customDismissAction","hiddenPreviewsShowTitle"],"hiddenPreviewsBodyPlaceholder":"%u meetings"}')
db.execute("INSERT INTO categories(identifier, json) VALUES (?, ?)", ("MEETING", meeting.encode()))
fire = ('{"id":"1767229200000~enter~phone-1~home","request":' + home.replace('{"location"', '{"identifier":"home","content":{"title":"Home"},"trigger":{"location"', 1)
        + ',"added":"2026-01-01T00:00:00Z"},"recipient":"alice","due":1767229200,'
        '"event":{"device":"phone-1","region":"home","kind":"enter","time":1767229200,"lat":48.8567,"lon":2.3523}}')
push = ('{"id":"1767229300000~push~ping","request":{"identifier":"ping","content":{"body":"Ping"},"trigger":{"push":{}}},'
        '"recipient":"","due":1767229300}')
db.executemany("INSERT INTO event_fires(id, identifier, due, json) VALUES (?, ?, ?, ?)", [
    ("1767229200000~enter~phone-1~home", "home", 1767229200.0, fire.encode()),
    ("1767229300000~push~ping", "ping", 1767229300.0, push.encode()),
])
db.execute("PRAGMA user_version = 4")
db.commit()
db.close()
