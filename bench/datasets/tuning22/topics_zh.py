"""Complaint topics of the issue-22 TUNING generators: a thing, what goes wrong with it, what is asked."""

from __future__ import annotations

import random

from . import zh

# (thing, what goes wrong, the harm, what is asked)
TOPICS = (
    ("电梯", "经常停运，上周又困住了人", "老人上下楼非常困难", "尽快更换电梯"),
    ("屋顶", "一下雨就漏水，墙皮大片脱落", "家具和电器都被泡坏", "安排维修防水层"),
    ("公交线路", "被调整后站点离小区太远", "上班上学要多走两公里", "恢复原来的站点"),
    ("暖气", "入冬以来一直不热，室温只有十几度", "家里老人孩子都感冒了", "督促供热单位整改"),
    ("路灯", "坏了很久没人修，晚上一片漆黑", "已经有人摔伤", "尽快修复路灯"),
    ("夜间施工", "每天凌晨还在作业，噪音很大", "居民无法正常休息", "禁止夜间施工"),
    ("垃圾站", "长期不清运，臭味熏天", "招来大量蚊蝇老鼠", "每天按时清运"),
    ("停车位", "被物业私自出租给外来车辆", "业主回家没有地方停车", "收回公共车位"),
    ("自来水", "水压太低，高层经常停水", "做饭洗澡都成问题", "加装二次供水设备"),
    ("下水道", "经常堵塞，污水漫到路面", "出行极不方便", "彻底疏通改造管网"),
    ("工资", "被拖欠了好几个月一直不发", "工人生活没有着落", "责令公司支付工资"),
    ("物业费", "突然上涨却没有任何说明", "服务质量反而越来越差", "公开收费标准"),
    ("违章建筑", "在楼顶私自搭建，占用公共空间", "存在严重安全隐患", "依法拆除违建"),
    ("餐馆油烟", "直接排向居民楼", "窗户都不敢打开", "加装净化设备"),
    ("学校", "周边道路拥堵，接送孩子很危险", "多次发生剐蹭事故", "增派交警疏导"),
    ("菜市场", "占道经营，污水横流", "路过的居民叫苦不迭", "规范市场管理"),
    ("化粪池", "多次满溢，无人处理", "整栋楼都是臭味", "清掏化粪池"),
    ("门禁", "坏了半年没人修，陌生人随意进出", "小区已经发生多起盗窃", "修好门禁系统"),
    ("健身器材", "损坏后一直没有更换", "孩子玩耍时受了伤", "更换损坏器材"),
    ("燃气管道", "老化漏气，闻到明显气味", "住户非常担心安全", "尽快排查更换"),
    ("拆迁补偿", "标准偏低，和周边差距很大", "家里无法另外购房", "重新评估补偿"),
    ("绿化带", "被人毁掉改成了菜地", "小区环境越来越差", "恢复绿化"),
    ("快递柜", "占用消防通道", "一旦着火后果不堪设想", "挪走快递柜"),
    ("养狗", "有住户在楼道里养大型犬", "孩子被吓得不敢出门", "依规管理犬只"),
    ("广场舞", "音响开得很大，一直跳到深夜", "影响周边居民休息", "限制音量和时间"),
    ("房屋质量", "交房后墙体开裂、地面空鼓", "开发商拒不维修", "责令开发商维修"),
    ("医保报销", "一直办不下来，来回跑了多次", "看病的钱借都借不到", "尽快办理报销"),
    ("校车", "超载严重，司机开车很快", "家长都很担心孩子安全", "严查校车超载"),
    ("小区大门", "被封堵了一个，只留一个出入口", "绕路十几分钟", "重新打开侧门"),
    ("河道", "被倾倒建筑垃圾，水发黑发臭", "附近居民苦不堪言", "清理河道垃圾"),
)

TEMPLATES = (
    "我是{dist}{comm}的居民，{when}以来，小区的{thing}{wrong}。",
    "{comm}{bld}号楼的{thing}{wrong}，{harm}。",
    "这个情况已经持续了{days}天，我们向{comp}反映过{times}次，一直没有解决。",
    "截至{date}，{thing}的问题仍然存在，涉及住户{homes}户。",
    "{comp}的工作人员每次都说会处理，但是{days}天过去了没有任何进展。",
    "{harm}，大家意见很大。",
    "希望有关部门{ask}，给{comm}的居民一个交代。",
    "我们要求{ask}，并且在{days}天内给出答复。",
    "家住{bld}号楼{room}室的居民也有同样的问题。",
    "{date}当天，{thing}{wrong}，{harm}。",
)


def facts(rng: random.Random) -> dict:
    """A complaint's own details: its place, company, dates and numbers."""
    return {"dist": zh.district(rng), "comm": zh.community(rng), "comp": zh.company(rng), "date": zh.date(rng),
            "when": zh.date(rng), "days": rng.randint(3, 120), "times": rng.randint(2, 9), "homes": rng.randint(12, 480),
            "bld": rng.randint(1, 36), "room": rng.randint(101, 2806)}


def body(rng: random.Random, topic: tuple, fx: dict, sentences: int) -> str:
    """A complaint about ``topic`` with the details ``fx``: the first template, then others in order."""
    thing, wrong, harm, ask = topic
    picked = [0] + sorted(rng.sample(range(1, len(TEMPLATES)), sentences - 1))
    return "".join(TEMPLATES[i].format(thing=thing, wrong=wrong, harm=harm, ask=ask, **fx) for i in picked)


def plain_letter(rng: random.Random) -> str:
    """An ordinary complaint on a random topic with its own details."""
    return body(rng, rng.choice(TOPICS), facts(rng), rng.randint(3, 6))
