"""Independent oracle for the time-zone tests: Python's zoneinfo over the machine's compiled tz database.

Reads JSON on stdin: {"tzdir": str, "instants": {zone: [unix seconds]}, "walls": {zone: [[y, m, d, h, mi, s]]}}
Writes JSON: {"instants": {zone: [[offset_seconds, abbreviation, dst_seconds]]}, "walls": {zone: [[fold0_unix, fold1_unix]]}}
"""
import json
import sys
import zoneinfo
from datetime import datetime

request = json.load(sys.stdin)
zoneinfo.reset_tzpath([request["tzdir"]])

instants = {}
for name, times in request["instants"].items():
    zone = zoneinfo.ZoneInfo(name)
    answers = []
    for t in times:
        local = datetime.fromtimestamp(t, zone)
        answers.append([int(local.utcoffset().total_seconds()), local.tzname(), int(local.dst().total_seconds())])
    instants[name] = answers

walls = {}
for name, readings in request["walls"].items():
    zone = zoneinfo.ZoneInfo(name)
    answers = []
    for y, mo, d, h, mi, s in readings:
        wall = datetime(y, mo, d, h, mi, s, tzinfo=zone)
        answers.append([int(wall.replace(fold=0).timestamp()), int(wall.replace(fold=1).timestamp())])
    walls[name] = answers

json.dump({"instants": instants, "walls": walls}, sys.stdout)
