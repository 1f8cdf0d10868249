import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Req,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import {
  MEMBER_ROLES,
  MEMBERS_SERVICE,
  type MemberRole,
  type MembersService,
  type MemberView,
  OwnersOnly,
  SessionGuard,
  type SessionRequest,
  type SignInCodeView,
} from '@router/admin';
import { Anonymous, validationPipe } from '@router/service-kit';
import { signedIn } from '../session/session.controller';
import type { Invitation, Member } from '@router/dashboard-types';

const ROLE_RULE = 'role must be "owner" or "member"';

export class MemberDto implements Member {
  @ApiProperty() id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: MEMBER_ROLES }) role!: MemberRole;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ description: 'Whether this is the signed-in member' }) you!: boolean;
}

export class InviteBody {
  @ApiProperty({ example: 'bo@example.com' })
  @IsString({ message: 'email must be a string' })
  @Length(3, 254, { message: 'email must be 3 to 254 characters long' })
  @Matches(/^[^\s@]+@[^\s@]+$/, { message: 'email must be an address like name@example.com' })
  email!: string;

  @ApiProperty({ enum: MEMBER_ROLES })
  @IsIn(MEMBER_ROLES, { message: ROLE_RULE })
  role!: MemberRole;
}

export class RoleBody {
  @ApiProperty({ enum: MEMBER_ROLES })
  @IsIn(MEMBER_ROLES, { message: ROLE_RULE })
  role!: MemberRole;
}

export class InvitationDto implements Invitation {
  @ApiProperty({ type: MemberDto }) member!: MemberDto;
  @ApiProperty({ description: 'The one-time sign-in code, in this answer only: hand it to the member' })
  code!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

/**
 * The org's members: every member sees them; only owners invite (a one-time code, shown once, as the admin
 * CLI prints one), give a new code, change a role or remove a member. The org's last owner stays an owner.
 */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/members')
@Anonymous()
@UseGuards(SessionGuard)
@UsePipes(validationPipe())
export class MembersController {
  constructor(@Inject(MEMBERS_SERVICE) private readonly members: MembersService) {}

  @Get()
  @ApiOperation({ summary: "The org's members and their roles, oldest first" })
  @ApiOkResponse({ type: [MemberDto] })
  async list(@Req() req: SessionRequest): Promise<MemberDto[]> {
    const session = signedIn(req);
    return (await this.members.listMembers(session.orgId)).map((m) => toDto(m, session.memberId));
  }

  @Post()
  @OwnersOnly()
  @ApiOperation({ summary: 'Invite a member (owners): the one-time sign-in code is in this answer only' })
  @ApiOkResponse({ type: InvitationDto })
  async invite(@Req() req: SessionRequest, @Body() body: InviteBody): Promise<InvitationDto> {
    const session = signedIn(req);
    const made = await this.members.addMember(session.orgId, body.email, body.role, session.email);
    return toInvitation(made, session.memberId);
  }

  @Post(':memberId/code')
  @OwnersOnly()
  @ApiOperation({ summary: 'A new one-time code for a member (owners), replacing any they have not used' })
  @ApiOkResponse({ type: InvitationDto })
  async code(@Req() req: SessionRequest, @Param('memberId') memberId: string): Promise<InvitationDto> {
    const session = signedIn(req);
    return toInvitation(
      await this.members.issueCodeFor(session.orgId, memberId, session.email),
      session.memberId,
    );
  }

  @Put(':memberId/role')
  @OwnersOnly()
  @ApiOperation({ summary: "Change a member's role (owners); the last owner stays one" })
  @ApiOkResponse({ type: MemberDto })
  async role(
    @Req() req: SessionRequest,
    @Param('memberId') memberId: string,
    @Body() body: RoleBody,
  ): Promise<MemberDto> {
    const session = signedIn(req);
    const changed = await this.members.setRole(session.orgId, memberId, body.role, session.email);
    return toDto(changed, session.memberId);
  }

  @Delete(':memberId')
  @OwnersOnly()
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (owners): their sessions end at once; the last owner stays' })
  @ApiNoContentResponse()
  async remove(@Req() req: SessionRequest, @Param('memberId') memberId: string): Promise<void> {
    const session = signedIn(req);
    await this.members.removeMember(session.orgId, memberId, session.email);
  }
}

function toDto(member: MemberView, you: string): MemberDto {
  return {
    id: member.id,
    email: member.email,
    role: member.role,
    created_at: member.created_at,
    you: member.id === you,
  };
}

function toInvitation(made: SignInCodeView, you: string): InvitationDto {
  return { member: toDto(made.member, you), code: made.code, expires_at: made.expires_at };
}
