import json, sys
def load(p):
    try: return {(l["set"], l["rows"]): l for l in json.load(open(p))["lines"] if l["method"].startswith("dedup")}
    except FileNotFoundError: return {}
q = "/tmp/i22-namesakes/q/"
b = {**load(q+"quality22-base.json"), **load(q+"quality22-base100k.json")}
m = {**load(q+"quality22-mine.json"), **load(q+"quality22-mine100k.json")}
print("| set | rows | P main → branch | R main → branch | F1 main → branch | groups | predicted pairs | largest false | false > 5 | full run s |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for k in b:
    x, y = b[k], m.get(k)
    if not y: print(f"| {k[0]} | {k[1]:,} | {x['precision']:.4f} → – | {x['recall']:.4f} → – | | | | | | |"); continue
    print(f"| {k[0]} | {k[1]:,} | {x['precision']:.4f} → {y['precision']:.4f} | {x['recall']:.4f} → {y['recall']:.4f} | {x['f1']:.4f} → {y['f1']:.4f} | {x['groups']:,} → {y['groups']:,} | {x['predicted_pairs']:,} → {y['predicted_pairs']:,} | {x['largest_false']} → {y['largest_false']} | {x['false_over_5']} → {y['false_over_5']} | {x['seconds']} / {y['seconds']} |")
