// A Windows PowerShell 5.1 check made with PowerShell's own parser (the 7.6 one, which knows every
// 7-only construct): parse, then walk the AST and refuse what 5.1 would not parse or would run
// differently. What 5.1 cannot parse (ternary, ??, ?., &&, ||, a trailing &, clean {}, `u{}) is an
// "error"; a 7-only parameter or command (-AsHashtable, -Parallel, Get-Error...) would fail when run.
using System.Collections;
using System.Collections.Specialized;
using System.Management.Automation.Language;

namespace PlayPwshHost;

public static class Compat51
{
    // command (lower-case) -> parameters that 5.1's version of it does not have
    static readonly Dictionary<string, string[]> SevenOnlyParameters = new(StringComparer.OrdinalIgnoreCase)
    {
        ["ConvertFrom-Json"] = new[] { "AsHashtable", "Depth", "NoEnumerate", "DateKind" },
        ["ConvertTo-Json"] = new[] { "AsArray", "EnumsAsStrings", "EscapeHandling" },
        ["ForEach-Object"] = new[] { "Parallel", "ThrottleLimit", "TimeoutSeconds", "AsJob", "UseNewRunspace" },
        ["%"] = new[] { "Parallel", "ThrottleLimit", "TimeoutSeconds", "AsJob", "UseNewRunspace" },
        ["foreach"] = new[] { "Parallel", "ThrottleLimit", "TimeoutSeconds", "AsJob", "UseNewRunspace" },
        ["Join-Path"] = new[] { "AdditionalChildPath", "ChildPath2" },
        ["Get-Content"] = new[] { "AsByteStream" },
        ["Set-Content"] = new[] { "AsByteStream" },
        ["Add-Content"] = new[] { "AsByteStream" },
        ["Invoke-WebRequest"] = new[] { "SkipCertificateCheck", "Authentication", "Token", "Resume", "SkipHttpErrorCheck", "StatusCodeVariable" },
        ["Invoke-RestMethod"] = new[] { "SkipCertificateCheck", "Authentication", "Token", "Resume", "SkipHttpErrorCheck", "StatusCodeVariable" },
        ["Select-String"] = new[] { "Raw", "NoEmphasis" },
        ["Get-ChildItem"] = new[] { "FollowSymlink" },
        ["Test-Connection"] = new[] { "TargetName", "Ping", "Traceroute", "MtuSize", "TcpPort" },
        ["Split-Path"] = new[] { "LeafBase", "Extension" },
        ["Out-File"] = new[] { "NoNewline" },
        ["Sort-Object"] = new[] { "Top", "Bottom", "Stable" },
        ["Get-Date"] = new[] { "AsUTC", "UnixTimeSeconds" },
        ["Start-Sleep"] = new[] { "Duration" },
        ["Import-Module"] = new[] { "UseWindowsPowerShell", "SkipEditionCheck" },
        ["Where-Object"] = new[] { "Not" },
    };

    // 5.1 parameters that are a prefix of a 7-only one: written in full they are 5.1's own.
    static readonly Dictionary<string, string[]> FiveOneParameters = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Split-Path"] = new[] { "Leaf" },
    };

    static readonly HashSet<string> SevenOnlyCommands = new(StringComparer.OrdinalIgnoreCase)
    {
        "Get-Error", "Test-Json", "ConvertFrom-Markdown", "Show-Markdown", "Get-Uptime", "Remove-Alias", "Remove-Service",
        "Join-String", "Get-PSHostProcessInfo", "Start-ThreadJob", "Clear-RecycleBin", "Get-MarkdownOption",
    };

    static readonly HashSet<string> SevenOnlyVariables = new(StringComparer.OrdinalIgnoreCase)
    {
        "IsWindows", "IsLinux", "IsMacOS", "IsCoreCLR", "PSStyle", "PSNativeCommandArgumentPassing", "PSNativeCommandUseErrorActionPreference",
    };

    public static IDictionary Check(string text)
    {
        var ast = Parser.ParseInput(text, out Token[] tokens, out ParseError[] errors);
        var problems = new List<IDictionary>();
        void Add(IScriptExtent e, string construct, string why) => problems.Add(new OrderedDictionary
        {
            ["line"] = e.StartLineNumber, ["column"] = e.StartColumnNumber, ["construct"] = construct, ["why"] = why,
            ["text"] = e.Text.Length > 120 ? e.Text.Substring(0, 120) + "..." : e.Text,
        });

        foreach (var a in ast.FindAll(_ => true, searchNestedScriptBlocks: true))
        {
            switch (a)
            {
                case TernaryExpressionAst: Add(a.Extent, "ternary ? :", "5.1 cannot parse it"); break;
                case BinaryExpressionAst b when b.Operator == TokenKind.QuestionQuestion: Add(a.Extent, "??", "5.1 cannot parse it"); break;
                case AssignmentStatementAst s when s.Operator == TokenKind.QuestionQuestionEquals: Add(a.Extent, "??=", "5.1 cannot parse it"); break;
                case MemberExpressionAst m when m.NullConditional: Add(a.Extent, "?.", "5.1 cannot parse it"); break;
                case IndexExpressionAst ix when ix.NullConditional: Add(a.Extent, "?[]", "5.1 cannot parse it"); break;
                case PipelineChainAst: Add(a.Extent, "&& / ||", "5.1 cannot parse pipeline chains"); break;
                case PipelineAst p when p.Background: Add(a.Extent, "trailing &", "5.1 cannot parse background pipelines"); break;
                case ScriptBlockAst sb when sb.CleanBlock != null: Add(sb.CleanBlock.Extent, "clean {}", "5.1 cannot parse a clean block"); break;
                case VariableExpressionAst v when !v.VariablePath.IsDriveQualified && SevenOnlyVariables.Contains(v.VariablePath.UserPath):
                    Add(a.Extent, "$" + v.VariablePath.UserPath, "automatic variable that 5.1 does not have (it reads as $null)"); break;
                case VariableExpressionAst v when v.VariablePath.UserPath.EndsWith("?"):
                    Add(a.Extent, "$name?", "a variable whose name ends in ? (both 5.1 and 7 read $a?.b as ${a?}.b; ?. needs ${a}?.b, which 5.1 cannot parse)"); break;
                case CommandAst c:
                    {
                        var name = c.GetCommandName();
                        if (name == null) break;
                        if (SevenOnlyCommands.Contains(name)) Add(c.Extent, name, "command that 5.1 does not have");
                        if (SevenOnlyParameters.TryGetValue(name, out var bad))
                            foreach (var p in c.CommandElements.OfType<CommandParameterAst>())
                                foreach (var b in bad)
                                    if (!(FiveOneParameters.TryGetValue(name, out var own) && own.Contains(p.ParameterName, StringComparer.OrdinalIgnoreCase)))
                                    if (b.StartsWith(p.ParameterName, StringComparison.OrdinalIgnoreCase) && p.ParameterName.Length >= Math.Min(3, b.Length))
                                        Add(p.Extent, $"{name} -{b}", $"parameter that 5.1's {name} does not have");
                        break;
                    }
            }
        }
        foreach (var t in tokens)
        {
            if ((t.Kind == TokenKind.StringExpandable || t.Kind == TokenKind.HereStringExpandable) && System.Text.RegularExpressions.Regex.IsMatch(t.Text, "`u\\{"))
                Add(t.Extent, "`u{...}", "5.1 has no `u{} escape (it reads as 'u{...}')");
        }
        return new OrderedDictionary
        {
            ["ok"] = errors.Length == 0 && problems.Count == 0,
            ["parseErrors"] = errors.Select(e => (object)new OrderedDictionary { ["line"] = e.Extent.StartLineNumber, ["column"] = e.Extent.StartColumnNumber, ["message"] = e.Message }).ToList(),
            ["problems"] = problems.Cast<object>().ToList(),
        };
    }
}
