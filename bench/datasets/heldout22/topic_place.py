"""Held-out (issue 22): Chinese complaints on the same few topics, each about its own place and incident.

    python -m bench.datasets.heldout22.topic_place --rows 3000 --seed 100 --out DIR

Table ``complaints`` (id, name, phone, title, content, updated_at) and truth.csv. Every complaint
is written from one of 24 topic templates (a lift that keeps stopping, a leaking roof, a moved bus
stop ...) and names its own district, road, community, building, dates and numbers; two
complaints on one topic share most of their words and differ by place and numbers. A true
duplicate is a refile of one incident: by the same person (light edits) or by a neighbour (own
name, phone and wording of the opening, same place, dates and numbers). Hard negatives: a new
incident at the same place on the same topic (other dates and numbers, another person).
Never used to choose dedup's defaults; report on seeds 100 and up.
"""

from __future__ import annotations

import random

from bench.datasets.heldout.common import Clock, HeldOut, finish, phone, punct_width, stamp, typo
from bench.datasets.heldout22.cli import generator_main
from bench.datasets.heldout22.zh_people import month_day, person_name, place

KINDS = ("refiled_self", "refiled_neighbours", "same_place_new_incident", "single")
COLUMNS = ["name", "phone", "title", "content", "updated_at"]
FIELDS = {"name": "short", "phone": "short", "title": "text", "content": "text"}
CLUSTER_SHARE = 0.10       # originals refiled (by themselves or neighbours)
NEW_INCIDENT_SHARE = 0.04  # a new incident at an earlier complaint's place, same topic

# (title, body): slots {where} (district road community), {bld} (building and unit), {d1} {d2}
# (dates), {n} {k} {h} {m} {f} (numbers: days, times, households, yuan, floor).
TOPICS = (
    ("{c}{b}号楼电梯频繁停运", "{bld}的电梯从{d1}开始三天两头停运，最长一次停了{n}天，住在{f}楼的老人只能爬楼梯。物业说配件要从厂家调，维保公司说等物业付款，互相推诿"),
    ("{c}{b}号楼顶楼漏水", "{bld}顶楼屋面防水层老化，{d1}那场大雨后{h}户家里天花板渗水，墙皮大面积脱落。维修基金申请了{k}次都没批下来"),
    ("{c}门口公交站被取消", "{where}门口的公交站在{d1}被取消，最近的站点要走{n}分钟。小区有{h}户居民，老人看病买菜都很不方便，希望恢复站点"),
    ("{c}{b}号楼冬季供暖不达标", "{bld}从{d1}开始供暖，室内温度只有{k}度，家里老人孩子冻得生病。热力公司来测过一次温度，说是管网问题，之后就没人管了"),
    ("{c}周边夜间施工扰民", "{where}旁边的工地每天晚上{k}点以后还在浇筑混凝土，噪音很大。{d1}以来已经连续{n}天，附近{h}户居民无法休息"),
    ("{c}{b}号楼化粪池外溢", "{bld}楼下的化粪池从{d1}开始往外冒污水，臭气熏天，已经{n}天没有清掏。一楼{h}户住户门都不敢开"),
    ("{c}地下车库积水", "{where}地下车库排水泵坏了，{d1}下雨后积水深达{k}十厘米，{h}辆车被泡。物业只同意每辆车补偿{m}元"),
    ("{c}物业费突然上涨", "{where}物业公司在{d1}贴出通知，物业费从每平方米{k}元涨到{n}元，没有召开业主大会，也没有公示成本，{h}户业主反对"),
    ("{c}二次供水水质发黄", "{bld}的自来水从{d1}开始发黄有异味，烧开后有沉淀。{h}户居民只能买桶装水，每户每月多花{m}元"),
    ("{c}{b}号楼楼道堆放杂物", "{bld}的楼道里堆满了纸箱和旧家具，消防通道被堵住{n}天了。{d1}已经打过{k}次电话给物业，一直没人清理"),
    ("{c}停车位被外来车辆占用", "{where}的业主车位经常被外来车辆占用，{d1}以来已经发生{n}次。物业收了每月{m}元管理费却不管，{h}户业主意见很大"),
    ("{c}路灯不亮", "{where}这段路的路灯从{d1}起就不亮了，共有{k}盏，晚上黑灯瞎火，已经有{n}位老人摔倒。希望尽快维修"),
    ("{c}垃圾清运不及时", "{where}的垃圾站{n}天才清运一次，{d1}以来垃圾堆成小山，夏天苍蝇蚊子很多，周边{h}户居民深受其害"),
    ("{c}{b}号楼外墙瓷砖脱落", "{bld}外墙瓷砖在{d1}掉落，砸坏了楼下{k}辆电动车，差点砸到行人。目前还有大约{n}平方米瓷砖空鼓，随时可能掉下来"),
    ("{c}燃气管道老化漏气", "{bld}的燃气管道使用{n}年了，{d1}闻到明显的煤气味，燃气公司来看过后只贴了封条，{h}户居民已经{k}天不能做饭"),
    ("{c}违规搭建阳光房", "{bld}{f}楼住户在{d1}开始在露台上搭建阳光房，占用公共空间约{n}平方米，城管来过{k}次也没有拆除"),
    ("{c}商铺油烟扰民", "{where}临街的{k}家饭店油烟直排，排风口正对{bld}的窗户，{d1}以来{h}户居民家里全是油味，晚上无法开窗"),
    ("{c}学校门口交通拥堵", "{where}学校门口每天上下学时段拥堵{n}分钟以上，{d1}还发生了剐蹭事故。建议在路口增设{k}名交警或协管员"),
    ("{c}充电桩迟迟不安装", "{where}的业主在{d1}申请安装充电桩，物业要求交{m}元押金，还要开具{k}份证明，拖了{n}天没有答复"),
    ("{c}小区绿地被改成停车场", "{where}的中心绿地在{d1}被物业铺成水泥停车场，约{n}平方米，占用了全体业主的公共绿地，{h}户业主签名反对"),
    ("{c}{b}号楼水压不足", "{bld}从{d1}开始水压不足，{f}楼以上白天基本没水，热水器打不着火。二次加压泵坏了{n}天，{h}户居民用水困难"),
    ("{c}广场舞噪音扰民", "{where}的小广场每晚{k}点到{n}点有人跳广场舞，音响开得很大，{d1}以来{h}户居民投诉多次，没有效果"),
    ("{c}门禁系统失灵", "{where}的门禁系统从{d1}开始失灵，大门常开，外来人员随意进出，小区已经发生{k}起电动车被盗，损失约{m}元"),
    ("{c}{b}号楼下水道反味", "{bld}卫生间下水道从{d1}开始反味，{h}户居民家里臭味很重，物业说是主管道设计问题，需要{m}元改造费，让业主分摊"),
)
_OPENINGS = ("我是附近的住户，", "本人是该小区的业主，", "我们是这里的居民，", "反映一个问题：", "你好，", "")
_CLOSINGS = ("请有关部门尽快处理。", "希望相关部门给个说法。", "恳请领导关注解决。", "请尽快答复。", "望早日解决为盼。", "")
_FOLLOW = ("上次反映后至今没有结果。", "我们楼的邻居也反映过同样的问题。", "这个问题已经拖了很久了。")


def _incident(rng: random.Random, where: dict) -> dict:
    """The slot values of one incident at ``where``: its dates and numbers."""
    return {"c": where["community"], "b": where["building"],
            "where": where["district"] + where["road"] + where["community"],
            "bld": f"{where['building']}号楼{where['unit']}单元", "d1": month_day(rng), "d2": month_day(rng),
            "n": rng.randint(3, 60), "k": rng.randint(2, 15), "h": rng.randint(8, 300), "m": rng.randint(2, 80) * 50,
            "f": rng.randint(5, 32)}


def _write(rng: random.Random, topic: int, slots: dict, opening: str, closing: str, extra: str = "") -> tuple[str, str]:
    title, body = TOPICS[topic]
    return title.format(**slots), opening.format(**slots) + body.format(**slots) + "。" + extra + closing


def _self_refile(rng: random.Random, row: dict, when) -> dict:
    """The same person refiles: 1-2 of a typo, punctuation width, a follow-up sentence, a prefix."""
    new = dict(row, updated_at=stamp(when))
    for edit in rng.sample(("typo", "width", "follow", "prefix"), rng.randint(1, 2)):
        if edit == "typo":
            new["content"] = typo(rng, new["content"], rng.randint(1, 2))
        elif edit == "width":
            new["content"] = punct_width(rng, new["content"], rng.choice((0.5, 1.0)))
        elif edit == "follow":
            new["content"] = new["content"] + rng.choice(_FOLLOW)
        else:
            new["title"] = rng.choice(("再次反映：", "（第二次）")) + new["title"]
    return new


def generate_complaints(n_rows: int, seed: int) -> HeldOut:
    """``n_rows`` labelled complaints, deterministic given the arguments."""
    rng = random.Random(seed)
    clock = Clock(rng)
    made: list[tuple[dict, str, str]] = []
    earlier: list[tuple[int, dict]] = []  # (topic, place) of earlier complaints
    while len(made) < n_rows:
        label = f"T{len(made)}"
        if earlier and rng.random() < NEW_INCIDENT_SHARE:
            topic, where = rng.choice(earlier)
            kind = "same_place_new_incident"
        else:
            topic, where = rng.randrange(len(TOPICS)), place(rng)
            earlier.append((topic, where))
            kind = "single"
        slots = _incident(rng, where)
        when = clock.first()
        title, content = _write(rng, topic, slots, rng.choice(_OPENINGS), rng.choice(_CLOSINGS))
        row = {"name": person_name(rng), "phone": phone(rng), "title": title, "content": content,
               "updated_at": stamp(when)}
        copies = rng.choice((1, 1, 1, 2, 2, 3)) if kind == "single" and rng.random() < CLUSTER_SHARE else 0
        neighbours = copies and rng.random() < 0.5
        if copies:
            kind = "refiled_neighbours" if neighbours else "refiled_self"
        made.append((row, kind, label))
        for _ in range(copies):
            when = clock.later(when)
            if neighbours:  # own person, own opening and closing, maybe their own building
                near = dict(where, building=where["building"] + rng.choice((0, 0, 1, -1)) or 1)
                own = dict(slots, bld=_incident(rng, near)["bld"])
                title, content = _write(rng, topic, own, rng.choice(_OPENINGS), rng.choice(_CLOSINGS),
                                        rng.choice(("", "", _FOLLOW[1])))
                copy = {"name": person_name(rng), "phone": phone(rng), "title": title,
                        "content": typo(rng, content, rng.choice((0, 1))), "updated_at": stamp(when)}
            else:
                copy = _self_refile(rng, row, when)
            made.append((copy, kind, label))
    return finish(rng, "complaints", COLUMNS, made[:n_rows])


main = generator_main(__doc__, "complaints", generate_complaints, FIELDS, KINDS, "content")


if __name__ == "__main__":
    main()
